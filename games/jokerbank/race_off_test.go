//go:build !race

package jokerbank

// raceBuild is set under -race, which makes the conformance playouts ten times slower.
const raceBuild = false
