//go:build !race

package querybuilder

const raceEnabled = false
