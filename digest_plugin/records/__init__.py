"""The data model every stage reads: plain values, no IO.

    from digest_plugin.records.pull import Pull        # a merged pull request, as the store keeps it
    from digest_plugin.records.state import RepoState  # how complete a repository's history is

`pull.py` is the one gate every record passes (from GitHub, an export or the store's files);
`state.py` the store's state file as values; `frozen.py` the immutable, compact records they are
made of. The store (`store/`) reads and writes them; nothing here touches a file.
"""
