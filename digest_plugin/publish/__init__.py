"""Publish stage: the Pelican glue (hooks), the template views and the files written beside pages."""
