//go:build race

package querybuilder

const raceEnabled = true
