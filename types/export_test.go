package types

// Hooks for the external tests of the decoder (codec_test.go).

// CompilePlan compiles the decoder of T, panicking as the package's own
// plans do on a field or tag it cannot decode.
func CompilePlan[T any]() { compilePlan[T]() }

// DecodeAs decodes data into *dst with a plan compiled for T, a type of
// the test's own.
func DecodeAs[T any](dst *T, data []byte) error { return decodeWith(compilePlan[T](), dst, data) }

// IsBrandKey reports whether key is a brand member of the given suffix.
func IsBrandKey(key, suffix string) bool { return isBrandKey([]byte(key), suffix) }
