package types_test

import (
	"encoding/json"
	"testing"

	"github.com/fiatramp/fiatramp-go/types"
	"github.com/stretchr/testify/require"
)

func TestEnumValues(t *testing.T) {
	require.Equal(t, []types.PayoutStatus{"PROCESSING", "SUCCESS", "FAILED", "REFUNDED", "IN_REVIEW", "CANCELLED"}, types.PayoutStatus("").Values())
	require.Equal(t, []types.KYCStatus{"UNVERIFIED", "PROCESSING", "VERIFIED", "FAILED", "TAX_VERIFICATION_FAILED", "DOCUMENT_VERIFICATION_FAILED"}, types.KYCStatus("").Values())
	require.Equal(t, []types.PaymentMethod{"IMPS", "UPI"}, types.PaymentMethod("").Values())
	require.Equal(t, []types.WalletStatus{"ACTIVE"}, types.WalletStatus("").Values())
	require.Equal(t, []types.BankAccountStatus{"PROCESSING", "VERIFIED", "FAILED"}, types.BankAccountStatus("").Values())
	require.Equal(t, []types.BankAccountType{"ACCOUNT_DETAILS", "bank_account", "vpa"}, types.BankAccountType("").Values())
	require.Equal(t, []types.QuotationStatus{"PROCESSING", "UNLINKED", "LINKED", "EXPIRED"}, types.QuotationStatus("").Values())

	// Values returns a fresh slice: changing it changes nothing else.
	v := types.PayoutSuccess.Values()
	v[0] = "MUTATED"
	require.Equal(t, types.PayoutProcessing, types.PayoutSuccess.Values()[0])
}

func TestEnumIsKnown(t *testing.T) {
	for _, v := range types.PayoutStatus("").Values() {
		require.True(t, v.IsKnown(), v)
	}
	for _, v := range types.KYCStatus("").Values() {
		require.True(t, v.IsKnown(), v)
	}
	for _, v := range types.PaymentMethod("").Values() {
		require.True(t, v.IsKnown(), v)
	}
	for _, v := range types.WalletStatus("").Values() {
		require.True(t, v.IsKnown(), v)
	}
	for _, v := range types.BankAccountStatus("").Values() {
		require.True(t, v.IsKnown(), v)
	}
	for _, v := range types.BankAccountType("").Values() {
		require.True(t, v.IsKnown(), v)
	}
	for _, v := range types.QuotationStatus("").Values() {
		require.True(t, v.IsKnown(), v)
	}
	require.False(t, types.PayoutStatus("ON_HOLD").IsKnown())
	require.False(t, types.PayoutStatus("success").IsKnown(), "case-sensitive")
	require.False(t, types.PayoutStatus("").IsKnown())
	require.False(t, types.KYCStatus("PENDING").IsKnown())
	require.False(t, types.PaymentMethod("NEFT").IsKnown())
	require.False(t, types.PaymentMethod("upi").IsKnown())
	require.False(t, types.WalletStatus("INACTIVE").IsKnown())
	require.False(t, types.BankAccountStatus("REJECTED").IsKnown())
	require.False(t, types.BankAccountType("BANK_ACCOUNT").IsKnown())
	require.False(t, types.QuotationStatus("CANCELLED").IsKnown())
}

func TestUnknownEnumValuesKeepTheirText(t *testing.T) {
	var p types.Payout
	require.NoError(t, json.Unmarshal([]byte(`{"status":"ON_HOLD"}`), &p))
	require.Equal(t, types.PayoutStatus("ON_HOLD"), p.Status)
	require.False(t, p.Status.IsKnown())

	var k types.KYCStatusSimulation
	require.NoError(t, json.Unmarshal([]byte(`{"status":"RE_KYC_REQUIRED"}`), &k))
	require.Equal(t, types.KYCStatus("RE_KYC_REQUIRED"), k.Status)

	var q types.PayinQuotation
	require.NoError(t, json.Unmarshal([]byte(`{"status":"SETTLED","payment_method":"NEFT"}`), &q))
	require.Equal(t, types.QuotationStatus("SETTLED"), q.Status)
	require.Equal(t, types.PaymentMethod("NEFT"), q.PaymentMethod)

	var b types.BankAccountListItem
	require.NoError(t, json.Unmarshal([]byte(`{"bank_account_type":"card","bank_account_status":"ON_HOLD"}`), &b))
	require.Equal(t, types.BankAccountType("card"), b.BankAccountType)
	require.Equal(t, types.BankAccountStatus("ON_HOLD"), b.BankAccountStatus)
}
