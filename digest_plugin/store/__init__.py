"""Store stage: the merged pull requests of each repository, as plain files under DIGEST_DATA_PATH.

    store = Store(settings.data_path)          # folder.py: the month files and the state file
    pulls = store.read_pulls("owner/name")     # records/pull.py: Pull, the one gate every record passes
    state = store.read_state("owner/name")     # records/state.py: how complete the history is, and from where

What fills it: `fetch/` (GitHub), `jsonl_import.py` (an export of GitHub REST pull objects),
`sample.py` (the bundled fictional sample) and `owner_index.py` (what `owner/*` matched at the last
fetch). Every file is written through `digest_plugin/atomic.py`.

The values it reads and writes are the data model, `digest_plugin/records/`, which every stage
reads; the store does IO only, and the pure stages (analysis, narrate) never import it.
"""
