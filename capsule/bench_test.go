package capsule

import "testing"

func BenchmarkBuild(b *testing.B) {
	o := opts(b, 1200)
	src := someSources()
	b.ResetTimer()
	for range b.N {
		Build(src, o)
	}
}

func BenchmarkBuildTight(b *testing.B) {
	o := opts(b, 200)
	src := someSources()
	b.ResetTimer()
	for range b.N {
		Build(src, o)
	}
}
