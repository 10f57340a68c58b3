"""fluxx-judge, the application: what combines the packages below it.

`adjudicator` is the reference engine and imports nothing of the others; `rulings`
holds the rulings and their search; `scenarios` the library; `tui` the app. This
package puts them together: the `fluxx-judge` command line (`fluxx_judge.cli`), the
full knowledge graph with the rulings and the library's scenarios in it
(`fluxx_judge.knowledge`), and where the library lives.
"""
