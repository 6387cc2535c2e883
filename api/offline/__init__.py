"""The offline recorder's server side: the Pyodide runtime and the rules archive the
browser loads (bundle.py), and the table the browser folds with them (table.py, which runs
in the browser and imports only `projections`)."""
