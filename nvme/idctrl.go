package nvme

import "fmt"

// IDCtrl is the Identify Controller data structure (CNS 01h): who made the
// controller, what it supports and how big it is. Field names and JSON tags
// follow the NVMe specification and nvme-cli.
type IDCtrl struct {
	VID    uint16 `json:"vid"`    // PCI vendor ID
	SSVID  uint16 `json:"ssvid"`  // PCI subsystem vendor ID
	SN     string `json:"sn"`     // serial number, padding removed
	MN     string `json:"mn"`     // model number, padding removed
	FR     string `json:"fr"`     // firmware revision, padding removed
	RAB    uint8  `json:"rab"`    // recommended arbitration burst (log2)
	IEEE   uint32 `json:"ieee"`   // IEEE OUI of the vendor
	CMIC   uint8  `json:"cmic"`   // multi-path I/O and namespace sharing
	MDTS   uint8  `json:"mdts"`   // maximum data transfer size, log2 of minimum pages; 0 = no limit
	CNTLID uint16 `json:"cntlid"` // controller ID
	VER    uint32 `json:"ver"`    // specification version, major<<16 | minor<<8 | tertiary
	// Version is VER as text, e.g. "1.4" or "2.0.1"; "" when the controller
	// does not report it (NVMe 1.0 and 1.1).
	Version   string `json:"version"`
	RTD3R     uint32 `json:"rtd3r"`     // RTD3 resume latency, microseconds
	RTD3E     uint32 `json:"rtd3e"`     // RTD3 entry latency, microseconds
	OAES      uint32 `json:"oaes"`      // optional asynchronous events supported
	CTRATT    uint32 `json:"ctratt"`    // controller attributes
	CNTRLTYPE uint8  `json:"cntrltype"` // 1 I/O, 2 discovery, 3 administrative

	OACS  AdminCommands `json:"oacs"`
	ACL   uint8         `json:"acl"`   // abort command limit, 0's based
	AERL  uint8         `json:"aerl"`  // asynchronous event request limit, 0's based
	FRMW  uint8         `json:"frmw"`  // firmware updates: slot 1 read-only, slot count, activation without reset
	LPA   uint8         `json:"lpa"`   // log page attributes
	ELPE  uint8         `json:"elpe"`  // error log page entries, 0's based
	NPSS  uint8         `json:"npss"`  // number of power states, 0's based
	APSTA uint8         `json:"apsta"` // autonomous power state transitions
	// WCTEMP and CCTEMP are the warning and critical composite temperature
	// thresholds in Kelvin.
	WCTEMP  Kelvin       `json:"wctemp"`
	CCTEMP  Kelvin       `json:"cctemp"`
	MTFA    uint16       `json:"mtfa"`    // maximum firmware activation time, 100 ms units
	HMPRE   uint32       `json:"hmpre"`   // host memory buffer preferred size, 4 KiB units
	HMMIN   uint32       `json:"hmmin"`   // host memory buffer minimum size, 4 KiB units
	TNVMCAP Uint128      `json:"tnvmcap"` // total NVM capacity, bytes
	UNVMCAP Uint128      `json:"unvmcap"` // unallocated NVM capacity, bytes
	EDSTT   uint16       `json:"edstt"`   // extended device self-test time, minutes
	DSTO    uint8        `json:"dsto"`    // device self-test options
	FWUG    uint8        `json:"fwug"`    // firmware update granularity, 4 KiB units
	KAS     uint16       `json:"kas"`     // keep alive support, 100 ms units
	HCTMA   uint16       `json:"hctma"`   // host controlled thermal management
	MNTMT   Kelvin       `json:"mntmt"`   // minimum thermal management temperature
	MXTMT   Kelvin       `json:"mxtmt"`   // maximum thermal management temperature
	SANICAP SanitizeCaps `json:"sanicap"`

	SQES   uint8       `json:"sqes"`   // submission queue entry size, log2 required | max<<4
	CQES   uint8       `json:"cqes"`   // completion queue entry size, log2 required | max<<4
	MAXCMD uint16      `json:"maxcmd"` // maximum outstanding commands (fabrics)
	NN     uint32      `json:"nn"`     // maximum namespace ID
	ONCS   NVMCommands `json:"oncs"`
	FUSES  uint16      `json:"fuses"` // fused operations
	FNA    FormatAttrs `json:"fna"`
	VWC    uint8       `json:"vwc"`   // volatile write cache: bit 0 present, bits 2:1 flush behaviour
	AWUN   uint16      `json:"awun"`  // atomic write unit normal, 0's based blocks
	AWUPF  uint16      `json:"awupf"` // atomic write unit power fail, 0's based blocks
	NWPC   uint8       `json:"nwpc"`  // namespace write protection capabilities
	ACWU   uint16      `json:"acwu"`  // atomic compare & write unit
	OCFS   uint16      `json:"ocfs"`  // optional copy formats supported
	SGLS   uint32      `json:"sgls"`  // SGL support
	MNAN   uint32      `json:"mnan"`  // maximum number of allowed namespaces
	SUBNQN string      `json:"subnqn"`

	PowerStates []PowerState `json:"psds"`
}

// PowerState is one power state descriptor (PSD0-PSD31), the fields that
// matter for a benchmark: how much power and how long to enter and leave.
type PowerState struct {
	MaxPower    uint16 `json:"max_power"`    // in units of 0.01 W, or 0.0001 W when Flags bit 0 is set
	Flags       uint8  `json:"flags"`        // bit 0 max power scale, bit 1 non-operational
	EntryLat    uint32 `json:"entry_lat"`    // entry latency, microseconds
	ExitLat     uint32 `json:"exit_lat"`     // exit latency, microseconds
	IdlePower   uint16 `json:"idle_power"`   // in units given by IdleScale
	IdleScale   uint8  `json:"idle_scale"`   // 1 = 0.0001 W, 2 = 0.01 W
	ActivePower uint16 `json:"active_power"` // in units given by ActiveScale
	ActiveScale uint8  `json:"active_scale"` // 1 = 0.0001 W, 2 = 0.01 W
}

// MaxPowerWatts returns the state's maximum power draw in watts.
func (ps PowerState) MaxPowerWatts() float64 {
	if ps.Flags&1 != 0 {
		return float64(ps.MaxPower) / 10000
	}
	return float64(ps.MaxPower) / 100
}

// NonOperational reports whether the controller processes no I/O in this
// state.
func (ps PowerState) NonOperational() bool { return ps.Flags&2 != 0 }

// FirmwareSlots returns the number of firmware slots (FRMW bits 3:1).
func (c *IDCtrl) FirmwareSlots() int { return int(c.FRMW>>1) & 7 }

// VolatileWriteCache reports whether the controller has a volatile write
// cache (VWC bit 0).
func (c *IDCtrl) VolatileWriteCache() bool { return c.VWC&1 != 0 }

// SmartPerNamespace reports whether the SMART/health log can be read per
// namespace (LPA bit 0); otherwise only the controller-wide log exists.
func (c *IDCtrl) SmartPerNamespace() bool { return c.LPA&1 != 0 }

const (
	psdOffset      = 2048 // PSD0
	psdSize        = 32
	maxPowerStates = 32 // NPSS is 0's based and at most 31
)

// DecodeIDCtrl decodes an Identify Controller page (4096 bytes).
func DecodeIDCtrl(b []byte) (*IDCtrl, error) {
	p, err := newPage("identify controller data", b, IDCtrlSize)
	if err != nil {
		return nil, err
	}
	c := &IDCtrl{}
	decodeCtrlIdentity(p, c)
	decodeCtrlAdmin(p, c)
	decodeCtrlNVM(p, c)
	c.PowerStates = decodePowerStates(p, min(int(c.NPSS)+1, maxPowerStates))
	return c, nil
}

// decodeCtrlIdentity reads the controller capabilities and features
// (bytes 0-255).
func decodeCtrlIdentity(p page, c *IDCtrl) {
	c.VID, c.SSVID = p.u16(0), p.u16(2)
	c.SN, c.MN, c.FR = p.ascii(4, 20), p.ascii(24, 40), p.ascii(64, 8)
	c.RAB, c.IEEE, c.CMIC, c.MDTS = p.u8(72), p.u24(73), p.u8(76), p.u8(77)
	c.CNTLID, c.VER = p.u16(78), p.u32(80)
	c.Version = versionString(c.VER)
	c.RTD3R, c.RTD3E, c.OAES, c.CTRATT = p.u32(84), p.u32(88), p.u32(92), p.u32(96)
	c.CNTRLTYPE = p.u8(111)
}

// decodeCtrlAdmin reads the admin command set attributes (bytes 256-511).
func decodeCtrlAdmin(p page, c *IDCtrl) {
	c.OACS = AdminCommands(p.u16(256))
	c.ACL, c.AERL, c.FRMW, c.LPA = p.u8(258), p.u8(259), p.u8(260), p.u8(261)
	c.ELPE, c.NPSS, c.APSTA = p.u8(262), p.u8(263), p.u8(265)
	c.WCTEMP, c.CCTEMP, c.MTFA = Kelvin(p.u16(266)), Kelvin(p.u16(268)), p.u16(270)
	c.HMPRE, c.HMMIN = p.u32(272), p.u32(276)
	c.TNVMCAP, c.UNVMCAP = p.u128(280), p.u128(296)
	c.EDSTT, c.DSTO, c.FWUG = p.u16(316), p.u8(318), p.u8(319)
	c.KAS, c.HCTMA = p.u16(320), p.u16(322)
	c.MNTMT, c.MXTMT = Kelvin(p.u16(324)), Kelvin(p.u16(326))
	c.SANICAP = SanitizeCaps(p.u32(328))
}

// decodeCtrlNVM reads the NVM command set attributes (bytes 512-767) and
// the subsystem NQN (768-1023).
func decodeCtrlNVM(p page, c *IDCtrl) {
	c.SQES, c.CQES, c.MAXCMD, c.NN = p.u8(512), p.u8(513), p.u16(514), p.u32(516)
	c.ONCS, c.FUSES = NVMCommands(p.u16(520)), p.u16(522)
	c.FNA, c.VWC = FormatAttrs(p.u8(524)), p.u8(525)
	c.AWUN, c.AWUPF, c.NWPC, c.ACWU = p.u16(526), p.u16(528), p.u8(531), p.u16(532)
	c.OCFS, c.SGLS, c.MNAN = p.u16(534), p.u32(536), p.u32(540)
	c.SUBNQN = p.cstring(768, 256)
}

// decodePowerStates reads the first n (at most maxPowerStates) power
// state descriptors.
func decodePowerStates(p page, n int) []PowerState {
	states := make([]PowerState, n)
	for i := range states {
		d := page(p[psdOffset+i*psdSize:][:psdSize])
		states[i] = PowerState{
			MaxPower: d.u16(0), Flags: d.u8(3), EntryLat: d.u32(4), ExitLat: d.u32(8),
			IdlePower: d.u16(16), IdleScale: d.u8(18) >> 6,
			ActivePower: d.u16(20), ActiveScale: d.u8(22) >> 6,
		}
	}
	return states
}

// versionString formats a VER value as "major.minor" or
// "major.minor.tertiary".
func versionString(ver uint32) string {
	if ver == 0 {
		return ""
	}
	major, minor, tertiary := ver>>16, (ver>>8)&0xff, ver&0xff
	if tertiary == 0 {
		return fmt.Sprintf("%d.%d", major, minor)
	}
	return fmt.Sprintf("%d.%d.%d", major, minor, tertiary)
}
