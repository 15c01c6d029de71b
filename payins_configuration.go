package fiatramp

import (
	"context"

	"github.com/fiatramp/fiatramp-go/types"
)

// GetConfiguration fetches what payins support: GET
// /pis/api/v1/payin/configuration, no body. The answer has the payout
// configuration's shape, keyed by fiat ({"inr": ...}, {"aud": ...}) or,
// from an older deployment, flat; types.Configuration reads both. An answer
// that names no supported_assets, under a fiat or flat, is refused with an
// error matching ErrMalformedResponse.
func (s *PayinsService) GetConfiguration(ctx context.Context, opts ...RequestOption) (*types.Configuration, error) {
	return call[types.Configuration](ctx, s.client, opPayinsGetConfiguration.op(), opts)
}
