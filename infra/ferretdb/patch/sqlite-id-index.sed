# Store workaround, applied to FerretDB 1.24.2 at build time (to a copy of the
# module; the module cache is untouched). Its SQLite backend creates each collection's
# unique `_id` index on `_ferretdb_sjson->"_id"` but filters by
# `_ferretdb_sjson->'$._id'`: the same value, a different expression, so SQLite
# never uses the index and every find, update and delete by `_id` scans the
# whole table. Filtering by the index's own expression lets SQLite search it.
s|IDColumn = DefaultColumn + "->'\$\._id'"|IDColumn = DefaultColumn + "->'_id'"|
