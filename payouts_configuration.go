package fiatramp

import (
	"context"

	"github.com/fiatramp/fiatramp-go/types"
)

// GetConfiguration fetches what payouts support: GET
// /pos/api/v1/payout/configuration, no body. The answer is keyed by fiat
// ({"inr": {"supported_assets", "coin_limits": {"usdt": {"imps": {"min",
// "max"}}}}}) or, from an older deployment, flat; types.Configuration
// reads both, and its Fiat method reads either as one fiat's. Limits are
// in units of the asset. An answer that names no supported_assets, under
// a fiat or flat, is refused with an error matching ErrMalformedResponse.
func (s *PayoutsService) GetConfiguration(ctx context.Context, opts ...RequestOption) (*types.Configuration, error) {
	return call[types.Configuration](ctx, s.client, opPayoutsGetConfiguration.op(), opts)
}

// configurationKnownBy is what a configuration is known by: the assets it
// supports, for some fiat or flat (an empty list is a configuration that
// supports none; a missing one says nothing).
func configurationKnownBy() resultRule {
	return requires(need("supported_assets", func(c *types.Configuration) bool {
		if c.SupportedAssets != nil {
			return false
		}
		for _, f := range c.Fiats {
			if f.SupportedAssets != nil {
				return false
			}
		}
		return true
	}))
}
