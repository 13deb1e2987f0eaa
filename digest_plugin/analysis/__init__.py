"""Analysis stage: pure functions from stored pulls to a week's results. No IO, no Pelican."""
