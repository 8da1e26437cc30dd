package js

// newRand returns a deterministic Math.random source (splitmix64, from
// Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014) yielding floats in [0, 1).
func newRand(seed uint64) func() float64 {
	return func() float64 {
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
		return float64(z>>11) / (1 << 53)
	}
}
