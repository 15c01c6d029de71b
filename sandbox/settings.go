package sandbox

// Settings: the sandbox's limits and the values the service does not
// document, their defaults, and how New settles what is left unset.

import (
	"net/http"
	"time"

	"github.com/shopspring/decimal"

	"github.com/fiatramp/fiatramp-go/types"
)

// DefaultRemittancePayoutPath is where the sandbox serves the remittance
// payout operation, as the service's public documentation gives it (its
// interface description leaves the path out).
const DefaultRemittancePayoutPath = "/pos/api/v1/remittance-payout/initiate"

// Settings are the sandbox's limits and the values the service does not
// document. Every documented limit defaults to its documented value;
// DefaultSettings says which defaults are the sandbox's own choice.
type Settings struct {
	// TimestampWindow is how far X-TIMESTAMP may be from the sandbox clock
	// (the service's window: 300 seconds).
	TimestampWindow time.Duration
	// MinPayinAmount is the amount a payin quotation's amount must exceed
	// (the service's minimum: INR 2500).
	MinPayinAmount decimal.Decimal
	// MaxIMPSAmount and MaxUPIAmount are the largest payin quotation amounts
	// per payment method (the service's maxima: INR 500,000 for IMPS and
	// INR 100,000 for UPI).
	MaxIMPSAmount decimal.Decimal
	MaxUPIAmount  decimal.Decimal
	// DailyOnrampLimit is the most a customer may quote for payins in one
	// UTC day of the sandbox clock. The service does not document the
	// amount; zero (the default) means no amount limit, so only a
	// customer's DailyLimitExhausted flag exhausts it.
	DailyOnrampLimit decimal.Decimal
	// PayinQuotationValidity is how long a payin quotation lives
	// (undocumented by the service; default 10 minutes).
	PayinQuotationValidity time.Duration
	// PayoutQuotationValidity is the expiry given to a payout quotation
	// fixture added without one (undocumented by the service; default 10
	// minutes).
	PayoutQuotationValidity time.Duration
	// PageSize is the number of items per page of every list: bank
	// accounts, customers, payout and payin history (undocumented by the
	// service; default 10).
	PageSize int
	// RemittancePayoutPath is the path of the remittance payout operation
	// (default DefaultRemittancePayoutPath).
	RemittancePayoutPath string
	// Rates are the payin exchange rates, fiat per unit of asset, keyed
	// "ASSET/FIAT" in upper case (undocumented by the service; default
	// USDT/INR 88.50, USDC/INR 88.40). A payin quotation for another pair
	// is refused.
	Rates map[string]decimal.Decimal
	// PayinServiceFee is the service's fee on a payin quotation, as a
	// fraction of the amount (undocumented by the service; default 0.01),
	// and PayinGSTRate the GST charged on that fee (default 0.18).
	PayinServiceFee decimal.Decimal
	PayinGSTRate    decimal.Decimal
	// DepositAccount is the account payin deposit instructions name.
	DepositAccount DepositAccount
	// RetryAfter is the Retry-After a rate-limit fault sends when the fault
	// gives none (default 1 second).
	RetryAfter time.Duration
	// Seed makes the choice of fraction faults and generated references
	// (utr, exchange order ids) repeatable. Zero picks a random seed.
	Seed uint64
	// PublicURL, when set, is the absolute base URL the bank list's next
	// and previous links start with. Empty: taken from each request
	// (scheme, Host and the path the request arrived on).
	PublicURL string

	// WebhookTimeout is how long a webhook delivery attempt waits for the
	// receiver's answer (default 10 seconds); no answer in time is a
	// failed attempt.
	WebhookTimeout time.Duration
	// WebhookMaxAttempts is the most attempts one delivery makes before it
	// is DeliveryFailed (default 6).
	WebhookMaxAttempts int
	// WebhookInitialBackoff is the wait after a delivery's first failed
	// attempt; each later wait doubles, up to WebhookMaxBackoff (defaults
	// 1 second and 1 minute). These waits and a delay fault's run on the
	// sandbox clock: a retry is due a backoff after the failed attempt
	// ended, as the sandbox clock reads. While the clock runs with real
	// time they pass with it; once it is stopped (SetTime) nothing waiting
	// is attempted until Advance or SetTime moves the clock past its due
	// time, which releases it at once (DeliverDue waits for the attempts).
	// WebhookTimeout alone is real time.
	WebhookInitialBackoff time.Duration
	WebhookMaxBackoff     time.Duration
	// WebhookWorkers is how many deliveries are attempted at once, each
	// for a different object (default 4).
	WebhookWorkers int
	// WebhookClient sends the deliveries; nil uses the sandbox's own,
	// which neither follows redirects nor uses a proxy, and unless
	// AllowRemoteWebhooks connects to loopback addresses only.
	WebhookClient *http.Client
	// AllowRemoteWebhooks lets deliveries go to any host. By default
	// (false) nothing leaves the machine: a webhook URL whose host is not
	// localhost or a loopback address (127.0.0.0/8, ::1) is registered
	// as the service would register it, but each of its deliveries is
	// logged DeliveryNotSent with the reason, and never attempted.
	AllowRemoteWebhooks bool
	// DeliveryLogSize is the most deliveries the delivery log (Deliveries)
	// keeps (default DefaultDeliveryLogSize, 10,000); each delivery past
	// it drops the oldest from the log, while DeliveryCounts goes on
	// counting every delivery. Zero or less takes the default.
	DeliveryLogSize int

	// Configuration, rates, limits and EDD.

	// CoinLimits are the least and the most one transaction of an asset
	// may carry, in units of the asset, keyed "ASSET/FIAT" in upper case,
	// then by payment method; the payout and payin configurations show
	// them (undocumented by the service; default USDT/INR and USDC/INR:
	// IMPS 10 to 5,000, UPI 10 to 1,000).
	CoinLimits map[string]map[types.PaymentMethod]CoinLimit
	// PayoutLimits and PayinLimits are every customer's daily limits of
	// payouts and of payins (undocumented by the service; defaults in
	// DefaultSettings), shown by the limits operations and consumed by
	// payout creates and payin quotations. Limits whose Daily is not
	// positive take the default.
	PayoutLimits DailyLimits
	PayinLimits  DailyLimits
	// EDDLimitMultiplier multiplies a customer's daily limits (Daily and
	// PerMethod) once a VERIFIED EDD lifted them: a payout EDD lifts the
	// payout limits, a payin EDD both (undocumented by the service;
	// default 10; less than 1 takes the default).
	EDDLimitMultiplier int64
	// Payout quotations and history.
	//
	// PayoutQuotationLifetime is how long a payout quotation created
	// through POST /pos/api/v1/payout/quotation lives before it is
	// EXPIRED (the service's examples: 5 minutes).
	PayoutQuotationLifetime time.Duration
	// PayoutServiceFee is the service's fee on a payout quotation, as a
	// fraction of its fiat value (undocumented by the service; default
	// 0.01), and PayoutGSTRate the GST charged on that fee (default 0.18).
	PayoutServiceFee decimal.Decimal
	PayoutGSTRate    decimal.Decimal
	// BankVerificationDelay, when positive, makes a bank account added
	// through the interface verify itself that long after it was added,
	// on the sandbox clock: VERIFIED, or FAILED with INVALID_IFSC or
	// INVALID_ACCOUNT_NUMBER when its IFSC or number is malformed, with
	// the BANK webhook. Zero (the default) leaves it PROCESSING until the
	// bank verification simulation moves it.
	BankVerificationDelay time.Duration
	// KYCAutoDecision, when positive, decides a customer's KYC by itself
	// this long (on the sandbox clock) after its KYC data or an update:
	// VERIFIED, or FAILED with KYCAutoFailureReason when that is set, with
	// the CUSTOMER webhook. Zero (the default) leaves the decision to the
	// KYC simulation.
	KYCAutoDecision      time.Duration
	KYCAutoFailureReason types.KYCFailureReason
}

// DepositAccount is where payin deposit instructions send the customer's
// fiat.
type DepositAccount struct {
	AccountNumber string `json:"account_number"`
	IFSC          string `json:"ifsc"`
	AccountName   string `json:"account_name"`
	// VPA is the UPI address the deep links pay to.
	VPA string `json:"vpa"`
}

// DefaultSettings returns the settings a Sandbox starts from: the documented
// limits of the service (timestamp window, payin minimum and maxima) and
// the sandbox's own choices where the service documents none (each named in its field's comment).
func DefaultSettings() Settings {
	return Settings{
		TimestampWindow:         300 * time.Second,
		MinPayinAmount:          decimal.NewFromInt(2500),
		MaxIMPSAmount:           decimal.NewFromInt(500000),
		MaxUPIAmount:            decimal.NewFromInt(100000),
		PayinQuotationValidity:  10 * time.Minute,
		PayoutQuotationValidity: 10 * time.Minute,
		PageSize:                10,
		RemittancePayoutPath:    DefaultRemittancePayoutPath,
		Rates: map[string]decimal.Decimal{
			"USDT/INR": decimal.RequireFromString("88.50"),
			"USDC/INR": decimal.RequireFromString("88.40"),
		},
		PayinServiceFee: decimal.RequireFromString("0.01"),
		PayinGSTRate:    decimal.RequireFromString("0.18"),
		DepositAccount: DepositAccount{
			AccountNumber: "50200012345678",
			IFSC:          "HDFC0000001",
			AccountName:   "Fiatramp Sandbox Collections",
			VPA:           "fiatramp.sandbox@hdfcbank",
		},
		RetryAfter:            time.Second,
		WebhookTimeout:        10 * time.Second,
		WebhookMaxAttempts:    6,
		WebhookInitialBackoff: time.Second,
		WebhookMaxBackoff:     time.Minute,
		WebhookWorkers:        4,
		DeliveryLogSize:       DefaultDeliveryLogSize,
		CoinLimits:            defaultCoinLimits(),
		PayoutLimits:          defaultPayoutLimits(),
		PayinLimits:           defaultPayinLimits(),
		EDDLimitMultiplier:    10,
		// Payout quotations and history.
		PayoutQuotationLifetime: 5 * time.Minute,
		PayoutServiceFee:        decimal.RequireFromString("0.01"),
		PayoutGSTRate:           decimal.RequireFromString("0.18"),
	}
}

// Option changes the settings a Sandbox is created with.
type Option func(*Settings)

// CoinLimit is the least and the most one transaction may carry, in units
// of the asset.
type CoinLimit struct {
	Min decimal.Decimal `json:"min"`
	Max decimal.Decimal `json:"max"`
}

// defaultCoinLimits are the default Settings.CoinLimits.
func defaultCoinLimits() map[string]map[types.PaymentMethod]CoinLimit {
	byMethod := func() map[types.PaymentMethod]CoinLimit {
		return map[types.PaymentMethod]CoinLimit{
			types.PaymentMethodIMPS: {Min: decimal.NewFromInt(10), Max: decimal.NewFromInt(5000)},
			types.PaymentMethodUPI:  {Min: decimal.NewFromInt(10), Max: decimal.NewFromInt(1000)},
		}
	}
	return map[string]map[types.PaymentMethod]CoinLimit{"USDT/INR": byMethod(), "USDC/INR": byMethod()}
}

// settleLimitSettings copies the maps of the configuration and limit
// settings, so that the caller's cannot change a running sandbox, and
// puts the defaults in place of unusable values.
func settleLimitSettings(st *Settings) {
	def := DefaultSettings()
	if st.CoinLimits == nil {
		st.CoinLimits = def.CoinLimits
	}
	if !st.PayoutLimits.Daily.IsPositive() {
		st.PayoutLimits = def.PayoutLimits
	}
	if !st.PayinLimits.Daily.IsPositive() {
		st.PayinLimits = def.PayinLimits
	}
	if st.EDDLimitMultiplier < 1 {
		st.EDDLimitMultiplier = def.EDDLimitMultiplier
	}
	copyLimitSettings(st)
}

// copyLimitSettings replaces the maps of st's configuration and limit
// settings by copies.
func copyLimitSettings(st *Settings) {
	coins := make(map[string]map[types.PaymentMethod]CoinLimit, len(st.CoinLimits))
	for pair, byMethod := range st.CoinLimits {
		m := make(map[types.PaymentMethod]CoinLimit, len(byMethod))
		for k, v := range byMethod {
			m[k] = v
		}
		coins[pair] = m
	}
	st.CoinLimits = coins
	st.PayoutLimits = st.PayoutLimits.clone()
	st.PayinLimits = st.PayinLimits.clone()
}
