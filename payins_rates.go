package fiatramp

import (
	"context"

	"github.com/fiatramp/fiatramp-go/types"
)

// GetRate fetches the indicative exchange rate of a payin, fiat per unit of
// asset: GET /pis/api/v1/payin/fetch-rate?asset=USDT&fiat=INR, with
// network=... added when req.Network is set. Asset and fiat are sent in
// upper case; the query is not signed (a GET signs "{}"). The rate a payin
// is made at is the one its quotation locks.
//
// A blank Asset or Fiat is refused before sending (ErrInvalidRequest). An
// answer without a positive rate is refused with an error matching
// ErrMalformedResponse.
func (s *PayinsService) GetRate(ctx context.Context, req types.RateRequest, opts ...RequestOption) (*types.Rate, error) {
	q, err := rateQuery(req)
	if err != nil {
		return nil, err
	}
	return call[types.Rate](ctx, s.client, opPayinsGetRate.op().withQuery(q), opts)
}
