"""The one exception type users see: its message is a complete sentence for stderr."""


class DigestError(Exception):
    """A problem the user can fix: bad input, bad settings, a corrupt file, an unreachable API."""
