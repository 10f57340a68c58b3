"""fluxx-judge, the application: the top layer, which combines the packages below it.

`adjudicator` is the reference engine and imports nothing of the others; `scenarios`
is the library; `rulings` holds the rulings, their search and the full knowledge graph
(`rulings.knowledge`); `tui` is the app. This package is the `fluxx-judge` command line
(`fluxx_judge.cli`), which starts the app, serves it to a browser and answers the
other commands.
"""
