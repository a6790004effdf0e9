# Herald build patch, applied to internal/handler/msg_update.go and
# msg_findandmodify.go: each read-modify-write command holds its collection's
# lock (write_lock.go.in) from its query to its write.
/^func (h \*Handler) updateDocument(ctx context.Context, params \*common.UpdateParams)/a\
	defer heraldLockCollection(params.DB, params.Collection)()
/^func (h \*Handler) findAndModifyDocument(ctx context.Context, params \*common.FindAndModifyParams)/a\
	defer heraldLockCollection(params.DB, params.Collection)()
