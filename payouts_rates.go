package fiatramp

import (
	"context"
	"net/url"
	"strings"

	"github.com/fiatramp/fiatramp-go/types"
)

// GetRate fetches the indicative exchange rate of a payout, fiat per unit of
// asset: GET /pos/api/v1/payout/fetch-rate?asset=USDT&fiat=INR, with
// network=... added when req.Network is set (the on-chain model). Asset
// and fiat are sent in upper case; the query is not signed (a GET signs
// "{}"). The rate a payout is made at is the one its quotation locks.
//
// A blank Asset or Fiat is refused before sending (ErrInvalidRequest). An
// answer without a positive rate is refused with an error matching
// ErrMalformedResponse.
func (s *PayoutsService) GetRate(ctx context.Context, req types.RateRequest, opts ...RequestOption) (*types.Rate, error) {
	q, err := rateQuery(req)
	if err != nil {
		return nil, err
	}
	return call[types.Rate](ctx, s.client, opPayoutsGetRate.op().withQuery(q), opts)
}

// rateQuery is the encoded query of a fetch rate, its parameters in key
// order (asset, fiat, network), or the error naming the field that cannot
// be sent.
func rateQuery(req types.RateRequest) (string, error) {
	if err := requireText("asset", req.Asset); err != nil {
		return "", err
	}
	if err := requireText("fiat", req.Fiat); err != nil {
		return "", err
	}
	q := "asset=" + url.QueryEscape(strings.ToUpper(req.Asset)) + "&fiat=" + url.QueryEscape(strings.ToUpper(req.Fiat))
	if req.Network != "" {
		q += "&network=" + url.QueryEscape(req.Network)
	}
	return q, nil
}

// rateKnownBy is what a fetched rate is known by: a positive rate (zero or
// less prices nothing).
func rateKnownBy() resultRule {
	return requires(need("rate", func(r *types.Rate) bool { return !r.Rate.IsPositive() }))
}
