//go:build race

package magister

// raceBuild is set under -race, which makes the redeal playouts ten times slower.
const raceBuild = true
