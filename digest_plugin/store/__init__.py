"""Store stage: see folder.py."""
