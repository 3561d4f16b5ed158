// Package metamorphic checks that pebblerf returns exactly what upstream
// Pebble returns.
//
// Every plug-in in pebblerf may skip data (point filters skip tables, range
// filters skip tables and blocks, the query planner narrows bounds), and one
// wrong skip is a lost row for a user. Each feature has its own tests; this
// harness checks them together, the way Pebble's own metamorphic test checks
// Pebble against itself under different options: it generates a random
// sequence of operations over one of several key kinds, runs it on upstream
// Pebble with plain options and on pebblerf under a random plug-in
// configuration, and compares every result the two return.
//
// The output of every read is rendered to a line of text, so "the same
// result" means the same text: keys, values, validity and errors of every
// step. A mismatch is shrunk to a short sequence that still fails and is
// printed in the text form that Parse reads back, so a failure can be turned
// into a regression test by pasting it into testdata/.
package metamorphic
