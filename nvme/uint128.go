package nvme

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strings"
)

// Uint128 is an unsigned 128-bit counter as NVMe stores them in the
// SMART/health log and in identify data (TNVMCAP, UNVMCAP).
type Uint128 struct {
	Lo, Hi uint64
}

// DataUnitBytes is the size of one SMART "data unit": 1000 blocks of 512
// bytes, whatever the namespace's block size.
const DataUnitBytes = 512_000

// Uint128From returns v as a Uint128.
func Uint128From(v uint64) Uint128 { return Uint128{Lo: v} }

// Big returns u as a big.Int.
func (u Uint128) Big() *big.Int {
	b := new(big.Int).SetUint64(u.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(u.Lo))
}

// Float64 returns u as the nearest float64.
func (u Uint128) Float64() float64 {
	return float64(u.Hi)*math.Exp2(64) + float64(u.Lo)
}

// Uint64 returns u as a uint64 and whether it fits.
func (u Uint128) Uint64() (uint64, bool) { return u.Lo, u.Hi == 0 }

// IsZero reports whether u is 0.
func (u Uint128) IsZero() bool { return u.Lo == 0 && u.Hi == 0 }

// String returns u in decimal.
func (u Uint128) String() string {
	if u.Hi == 0 {
		return fmt.Sprint(u.Lo)
	}
	return u.Big().String()
}

// MarshalJSON writes u as a decimal string, as nvme-cli does, so that no
// JSON reader rounds it to a float64.
func (u Uint128) MarshalJSON() ([]byte, error) {
	return json.Marshal(u.String())
}

// UnmarshalJSON reads a decimal string or a plain JSON number.
func (u *Uint128) UnmarshalJSON(data []byte) error {
	text := strings.Trim(string(data), `"`)
	b, ok := new(big.Int).SetString(text, 10)
	if !ok || b.Sign() < 0 || b.BitLen() > 128 {
		return fmt.Errorf("nvme: %s is not an unsigned 128-bit decimal number", data)
	}
	mask := new(big.Int).SetUint64(math.MaxUint64)
	u.Lo = new(big.Int).And(b, mask).Uint64()
	u.Hi = new(big.Int).Rsh(b, 64).Uint64()
	return nil
}

// DataUnitsToBytes converts a SMART data-unit count (data_units_read,
// data_units_written) to bytes.
func DataUnitsToBytes(units Uint128) *big.Int {
	b := units.Big()
	return b.Mul(b, big.NewInt(DataUnitBytes))
}

// Sub returns u - v, and false when v is larger than u.
func (u Uint128) Sub(v Uint128) (Uint128, bool) {
	lo, borrow := bits.Sub64(u.Lo, v.Lo, 0)
	hi, borrow := bits.Sub64(u.Hi, v.Hi, borrow)
	return Uint128{Lo: lo, Hi: hi}, borrow == 0
}
