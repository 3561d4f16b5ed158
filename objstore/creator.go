package objstore

import (
	"github.com/cockroachdb/errors"
	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/objstorage"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider/remoteobjcat"
)

// initCreatorID records a creator ID in the DB directory dirname before the
// DB is opened with opts (whose Experimental.RemoteStorage must be set).
// Pebble creates tables on shared storage only once a creator ID is set, and
// names them by it; setting it before Open (as Pebble's metamorphic test
// does) means that even the flushes Open itself makes go to the store,
// where DB.SetCreatorID after Open would leave them failing or local.
//
// The ID is persisted: a later call with the same ID is a no-op, one with
// another ID fails. DBs that share a store need distinct IDs.
func initCreatorID(dirname string, opts *pebble.Options, id uint64) error {
	if opts == nil || opts.Experimental.RemoteStorage == nil {
		return errors.New("objstore: initCreatorID needs options with Experimental.RemoteStorage set")
	}
	if id == 0 {
		return errors.New("objstore: creator ID 0 means unset; use a positive ID")
	}
	o := opts.Clone()
	o.EnsureDefaults()
	if err := o.FS.MkdirAll(dirname, 0o755); err != nil {
		return errors.Wrapf(err, "objstore: creating %q", dirname)
	}
	// The catalog is read first: Pebble treats a change of creator ID as an
	// assertion failure, which panics in builds with invariants on (race
	// builds among them), and a user's mistake must be an error.
	catalog, contents, err := remoteobjcat.Open(o.FS, dirname)
	if err != nil {
		return errors.Wrapf(err, "objstore: opening the object catalog in %q", dirname)
	}
	if contents.CreatorID.IsSet() && contents.CreatorID != objstorage.CreatorID(id) {
		return errors.CombineErrors(
			errors.Newf("objstore: setting creator ID %d in %q: the directory already has creator ID %d",
				id, dirname, uint64(contents.CreatorID)),
			catalog.Close())
	}
	err = catalog.SetCreatorID(objstorage.CreatorID(id))
	return errors.CombineErrors(errors.Wrapf(err, "objstore: setting creator ID %d in %q", id, dirname),
		catalog.Close())
}
