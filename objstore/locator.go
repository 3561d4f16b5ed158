package objstore

import "github.com/cockroachdb/pebble/v2/objstorage/remote"

// Locator is the name under which a DB records the store its shared tables
// live in (Pebble's Options.Experimental.CreateOnSharedLocator; Configure
// sets it). Pebble writes it into the DB's remote-object catalog, so a
// reopen must resolve the same name, to the same store's contents, whatever
// URL reaches them; it carries no secret and no URL.
const Locator remote.Locator = "pebblerf"
