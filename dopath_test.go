package fiatramp_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	fiatramp "github.com/fiatramp/fiatramp-go"
)

// TestDoRefusesPathsThatLeaveTheBase: Do sends its path as written under
// the base path; a dot segment, plain or escaped (once or twice), would be
// resolved outside it by a gateway that normalises paths, so such a path is
// refused before anything is sent, naming the field.
func TestDoRefusesPathsThatLeaveTheBase(t *testing.T) {
	var hits atomic.Int32
	var gotPath string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		gotPath = r.URL.EscapedPath()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":true,"message":"ok","data":{}}`))
	}))
	t.Cleanup(srv.Close)
	c, err := fiatramp.New("key", "secret", fiatramp.WithBaseURL(srv.URL+"/gw"),
		fiatramp.WithRetry(fiatramp.RetryPolicy{MaxAttempts: 1}))
	require.NoError(t, err)

	for _, p := range []string{
		"/../x", "/pos/../../x", "/pos/./x", "/pos/..;/x", "/pos/%2e%2e/x", "/pos/%2E%2E/x",
		"/pos/.%2e/x", "/pos%2F..%2Fx", "/pos/%5C..%5Cx", "/pos/%252e%252e/x", "/pos/%25252e./x", "/pos\\..\\x",
	} {
		err := c.Do(context.Background(), http.MethodGet, p, nil, nil)
		var ve *fiatramp.ValidationError
		require.True(t, errors.As(err, &ve), "%s: %v", p, err)
		assert.Equal(t, "path", ve.Field, p)
		assert.True(t, errors.Is(err, fiatramp.ErrInvalidRequest), p)
	}
	assert.Zero(t, hits.Load(), "a refused path sent a request")

	// Dots inside a segment, an escaped slash inside an id and escapes in
	// the query are no way out.
	require.NoError(t, c.Do(context.Background(), http.MethodGet, "/pos/api/v1/a..b/x.y/ref%2Fid?next=%2Fgw%2F..", nil, nil))
	assert.Equal(t, int32(1), hits.Load())
	assert.Equal(t, "/gw/pos/api/v1/a..b/x.y/ref%2Fid", gotPath)
}
