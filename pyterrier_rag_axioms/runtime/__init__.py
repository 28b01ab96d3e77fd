"""How the package runs: the caches, model files built at first use, threads, worker processes by topic.
Not here: anything that analyses, judges or ranks text (``tools/`` and above), which this folder never imports."""
