# Herald build patch, applied to internal/util/resource/resource.go: Track and
# Untrack return at once. Upstream they are a leak detector that runs in
# release builds too: every tracked object (each document iterator, query,
# row set, transaction) is added to a pprof profile, which records its stack,
# and given a finalizer that panics if it is collected unclosed. While the
# fan-out reads its audience that was 8 % of FerretDB's CPU (stack capture)
# plus the garbage collector's work on finalizers; nothing reads the profile
# and the finalizers only ever panic.
/^func Track(obj any, token \*Token) {$/a\
	return // Herald: leak tracking off
/^func Untrack(obj any, token \*Token) {$/a\
	return // Herald: leak tracking off
