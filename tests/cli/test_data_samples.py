"""``rag-axioms data list`` lists the samples shipped in the package, which ``data path`` takes."""

from __future__ import annotations

from pyterrier_rag_axioms.cli import main
from pyterrier_rag_axioms.sample import sample_path, trec_sample_path


def test_data_list_shows_the_shipped_samples_that_data_path_takes(capsys):
    assert main(["data", "list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    shipped = {line.split()[0]: line.split()[-1] for line in listed if " shipped " in line}
    assert shipped == {"sample": str(sample_path()), "trec-rag-2024-sample": str(trec_sample_path())}
    for name, path in shipped.items():
        assert main(["data", "path", name]) == 0
        assert capsys.readouterr().out.strip() == path
    assert main(["data", "list", "trec-rag-2024-sample"]) == 0
    only = capsys.readouterr().out
    assert "trec-rag-2024-sample shipped" in only and "nuggets" not in only.split("\n")[0]
    assert main(["data", "fetch", "sample"]) == 2
    assert "'sample' is shipped in the package, nothing to fetch" in capsys.readouterr().err
