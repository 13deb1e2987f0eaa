"""What runs a build, around the stages: the machinery, not the digest.

- `locked_output.py`: `make html` and `make publish`, one build at a time into a fresh folder,
  swapped into place only when it succeeded.
- `settings_file.py`: the user's `pelicanconf.py`, read as Pelican reads it, failing in one sentence.
- `workers.py`: work spread over the cores (charts, PDFs, first analyses) in worker processes.
- `gc_pause.py`: Python's full garbage collections held until a build ends.
- `actions_outputs.py`: what the GitHub Pages workflow asks before it builds.
"""
