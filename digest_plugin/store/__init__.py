"""Store stage: the merged pull requests of each repository, as plain files under DIGEST_DATA_PATH.

    store = Store(settings.data_path)          # folder.py: the month files and the state file
    pulls = store.read_pulls("owner/name")     # records.py: Pull, the one gate every record passes
    state = store.read_state("owner/name")     # state.py: how complete the history is, and from where

What fills it: `fetch/` (GitHub), `jsonl_import.py` (an export of GitHub REST pull objects),
`sample.py` (the bundled fictional sample) and `owner_index.py` (what `owner/*` matched at the last
fetch). `atomic.py` is the one way files are written.

`records.py`, `state.py` and `frozen_record.py` are plain values that every later stage reads; they
touch no file. The rest does IO, and the pure stages (analysis, narrate) never import it.
"""
