package nvme

import (
	"encoding/json"
	"fmt"
	"strconv"
)

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
	RRLS      uint16 `json:"rrls"`      // read recovery levels supported
	CNTRLTYPE uint8  `json:"cntrltype"` // 1 I/O, 2 discovery, 3 administrative
	FGUID     string `json:"fguid"`     // FRU globally unique identifier, as a UUID
	CRDT1     uint16 `json:"crdt1"`     // command retry delay times, 100 ms units
	CRDT2     uint16 `json:"crdt2"`
	CRDT3     uint16 `json:"crdt3"`
	NVMSR     uint8  `json:"nvmsr"` // NVM subsystem report (NVMe-MI)
	VWCI      uint8  `json:"vwci"`  // VPD write cycle information
	MEC       uint8  `json:"mec"`   // management endpoint capabilities

	OACS  AdminCommands `json:"oacs"`
	ACL   uint8         `json:"acl"`   // abort command limit, 0's based
	AERL  uint8         `json:"aerl"`  // asynchronous event request limit, 0's based
	FRMW  uint8         `json:"frmw"`  // firmware updates: slot 1 read-only, slot count, activation without reset
	LPA   uint8         `json:"lpa"`   // log page attributes
	ELPE  uint8         `json:"elpe"`  // error log page entries, 0's based
	NPSS  uint8         `json:"npss"`  // number of power states, 0's based
	AVSCC uint8         `json:"avscc"` // admin vendor specific command configuration
	APSTA uint8         `json:"apsta"` // autonomous power state transitions
	// WCTEMP and CCTEMP are the warning and critical composite temperature
	// thresholds in Kelvin.
	WCTEMP    Kelvin       `json:"wctemp"`
	CCTEMP    Kelvin       `json:"cctemp"`
	MTFA      uint16       `json:"mtfa"`    // maximum firmware activation time, 100 ms units
	HMPRE     uint32       `json:"hmpre"`   // host memory buffer preferred size, 4 KiB units
	HMMIN     uint32       `json:"hmmin"`   // host memory buffer minimum size, 4 KiB units
	TNVMCAP   Uint128      `json:"tnvmcap"` // total NVM capacity, bytes
	UNVMCAP   Uint128      `json:"unvmcap"` // unallocated NVM capacity, bytes
	RPMBS     uint32       `json:"rpmbs"`   // replay protected memory block support
	EDSTT     uint16       `json:"edstt"`   // extended device self-test time, minutes
	DSTO      uint8        `json:"dsto"`    // device self-test options
	FWUG      uint8        `json:"fwug"`    // firmware update granularity, 4 KiB units
	KAS       uint16       `json:"kas"`     // keep alive support, 100 ms units
	HCTMA     uint16       `json:"hctma"`   // host controlled thermal management
	MNTMT     Kelvin       `json:"mntmt"`   // minimum thermal management temperature
	MXTMT     Kelvin       `json:"mxtmt"`   // maximum thermal management temperature
	SANICAP   SanitizeCaps `json:"sanicap"`
	HMMINDS   uint32       `json:"hmminds"`   // host memory buffer minimum descriptor entry size, 4 KiB units
	HMMAXD    uint16       `json:"hmmaxd"`    // host memory maximum descriptors entries
	NSETIDMAX uint16       `json:"nsetidmax"` // NVM set identifier maximum
	ENDGIDMAX uint16       `json:"endgidmax"` // endurance group identifier maximum
	ANATT     uint8        `json:"anatt"`     // ANA transition time, seconds
	ANACAP    uint8        `json:"anacap"`    // asymmetric namespace access capabilities
	ANAGRPMAX uint32       `json:"anagrpmax"` // ANA group identifier maximum
	NANAGRPID uint32       `json:"nanagrpid"` // number of ANA group identifiers
	PELS      uint32       `json:"pels"`      // persistent event log size, 64 KiB units
	DOMAINID  uint16       `json:"domainid"`  // domain identifier
	MEGCAP    Uint128      `json:"megcap"`    // maximum endurance group capacity, bytes

	SQES    uint8       `json:"sqes"`   // submission queue entry size, log2 required | max<<4
	CQES    uint8       `json:"cqes"`   // completion queue entry size, log2 required | max<<4
	MAXCMD  uint16      `json:"maxcmd"` // maximum outstanding commands (fabrics)
	NN      uint32      `json:"nn"`     // maximum namespace ID
	ONCS    NVMCommands `json:"oncs"`
	FUSES   uint16      `json:"fuses"` // fused operations
	FNA     FormatAttrs `json:"fna"`
	VWC     uint8       `json:"vwc"`     // volatile write cache: bit 0 present, bits 2:1 flush behaviour
	AWUN    uint16      `json:"awun"`    // atomic write unit normal, 0's based blocks
	AWUPF   uint16      `json:"awupf"`   // atomic write unit power fail, 0's based blocks
	ICSVSCC uint8       `json:"icsvscc"` // I/O command set vendor specific command configuration
	NWPC    uint8       `json:"nwpc"`    // namespace write protection capabilities
	ACWU    uint16      `json:"acwu"`    // atomic compare & write unit
	OCFS    uint16      `json:"ocfs"`    // optional copy formats supported
	SGLS    uint32      `json:"sgls"`    // SGL support
	MNAN    uint32      `json:"mnan"`    // maximum number of allowed namespaces
	MAXDNA  Uint128     `json:"maxdna"`  // maximum domain namespace attachments
	MAXCNA  uint32      `json:"maxcna"`  // maximum I/O controller namespace attachments
	SUBNQN  string      `json:"subnqn"`

	// Fabrics attributes (bytes 1792-2047): zero on a PCIe controller.
	IOCCSZ uint32 `json:"ioccsz"` // I/O queue command capsule supported size, 16-byte units
	IORCSZ uint32 `json:"iorcsz"` // I/O queue response capsule supported size, 16-byte units
	ICDOFF uint16 `json:"icdoff"` // in capsule data offset, 16-byte units
	FCATT  uint8  `json:"fcatt"`  // fabrics controller attributes
	MSDBD  uint8  `json:"msdbd"`  // maximum SGL data block descriptors
	OFCS   uint16 `json:"ofcs"`   // optional fabric commands supported

	PowerStates []PowerState `json:"psds"`

	// padded holds SN, MN and FR as the page has them, with their space
	// padding, which nvme-cli's JSON keeps.
	padded struct{ sn, mn, fr string }
}

// MarshalJSON writes the page with nvme-cli's names and values: the
// serial, model and firmware keep the page's space padding, as nvme-cli
// prints them.
func (c *IDCtrl) MarshalJSON() ([]byte, error) {
	type plain IDCtrl
	out := (*plain)(c)
	if c.padded.sn != "" || c.padded.mn != "" || c.padded.fr != "" {
		cp := *out
		cp.SN, cp.MN, cp.FR = c.padded.sn, c.padded.mn, c.padded.fr
		out = &cp
	}
	return json.Marshal(out)
}

// PowerState is one power state descriptor (PSD0-PSD31): how much power
// the state draws, how long it takes to enter and leave, and how it
// performs relative to the other states.
type PowerState struct {
	MaxPower  uint16 `json:"max_power"`  // in units of 0.01 W, or 0.0001 W when Flags bit 0 is set
	Flags     uint8  `json:"flags"`      // bit 0 max power scale, bit 1 non-operational
	EntryLat  uint32 `json:"entry_lat"`  // entry latency, microseconds
	ExitLat   uint32 `json:"exit_lat"`   // exit latency, microseconds
	ReadTput  uint8  `json:"read_tput"`  // relative read throughput, 0 best
	ReadLat   uint8  `json:"read_lat"`   // relative read latency, 0 best
	WriteTput uint8  `json:"write_tput"` // relative write throughput, 0 best
	WriteLat  uint8  `json:"write_lat"`  // relative write latency, 0 best
	IdlePower uint16 `json:"idle_power"` // in units given by IdleScale
	IdleScale uint8  `json:"idle_scale"` // 1 = 0.0001 W, 2 = 0.01 W
	// ActivePower is measured under the workload ActivePowerWork names
	// (1 or 2, as the specification defines them; 0 when not reported).
	ActivePower     uint16 `json:"active_power"`
	ActivePowerWork uint8  `json:"active_power_work"`
	ActiveScale     uint8  `json:"active_scale"` // 1 = 0.0001 W, 2 = 0.01 W
}

// String describes the state as "8.25 W", "0.5 W (non-operational)".
func (ps PowerState) String() string {
	s := strconv.FormatFloat(ps.MaxPowerWatts(), 'f', -1, 64) + " W"
	if ps.NonOperational() {
		s += " (non-operational)"
	}
	return s
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
	c.padded.sn, c.padded.mn, c.padded.fr = p.padded(4, 20), p.padded(24, 40), p.padded(64, 8)
	c.RAB, c.IEEE, c.CMIC, c.MDTS = p.u8(72), p.u24(73), p.u8(76), p.u8(77)
	c.CNTLID, c.VER = p.u16(78), p.u32(80)
	c.Version = versionString(c.VER)
	c.RTD3R, c.RTD3E, c.OAES, c.CTRATT = p.u32(84), p.u32(88), p.u32(92), p.u32(96)
	c.RRLS, c.CNTRLTYPE, c.FGUID = p.u16(100), p.u8(111), p.uuid(112)
	c.CRDT1, c.CRDT2, c.CRDT3 = p.u16(128), p.u16(130), p.u16(132)
	c.NVMSR, c.VWCI, c.MEC = p.u8(253), p.u8(254), p.u8(255)
}

// decodeCtrlAdmin reads the admin command set attributes (bytes 256-511).
func decodeCtrlAdmin(p page, c *IDCtrl) {
	c.OACS = AdminCommands(p.u16(256))
	c.ACL, c.AERL, c.FRMW, c.LPA = p.u8(258), p.u8(259), p.u8(260), p.u8(261)
	c.ELPE, c.NPSS, c.AVSCC, c.APSTA = p.u8(262), p.u8(263), p.u8(264), p.u8(265)
	c.WCTEMP, c.CCTEMP, c.MTFA = Kelvin(p.u16(266)), Kelvin(p.u16(268)), p.u16(270)
	c.HMPRE, c.HMMIN = p.u32(272), p.u32(276)
	c.TNVMCAP, c.UNVMCAP, c.RPMBS = p.u128(280), p.u128(296), p.u32(312)
	c.EDSTT, c.DSTO, c.FWUG = p.u16(316), p.u8(318), p.u8(319)
	c.KAS, c.HCTMA = p.u16(320), p.u16(322)
	c.MNTMT, c.MXTMT = Kelvin(p.u16(324)), Kelvin(p.u16(326))
	c.SANICAP = SanitizeCaps(p.u32(328))
	c.HMMINDS, c.HMMAXD, c.NSETIDMAX, c.ENDGIDMAX = p.u32(332), p.u16(336), p.u16(338), p.u16(340)
	c.ANATT, c.ANACAP, c.ANAGRPMAX, c.NANAGRPID = p.u8(342), p.u8(343), p.u32(344), p.u32(348)
	c.PELS, c.DOMAINID, c.MEGCAP = p.u32(352), p.u16(356), p.u128(368)
}

// decodeCtrlNVM reads the NVM command set attributes (bytes 512-767) and
// the subsystem NQN (768-1023).
func decodeCtrlNVM(p page, c *IDCtrl) {
	c.SQES, c.CQES, c.MAXCMD, c.NN = p.u8(512), p.u8(513), p.u16(514), p.u32(516)
	c.ONCS, c.FUSES = NVMCommands(p.u16(520)), p.u16(522)
	c.FNA, c.VWC = FormatAttrs(p.u8(524)), p.u8(525)
	c.AWUN, c.AWUPF, c.ICSVSCC, c.NWPC, c.ACWU = p.u16(526), p.u16(528), p.u8(530), p.u8(531), p.u16(532)
	c.OCFS, c.SGLS, c.MNAN = p.u16(534), p.u32(536), p.u32(540)
	c.MAXDNA, c.MAXCNA = p.u128(544), p.u32(560)
	c.SUBNQN = p.cstring(768, 256)
	c.IOCCSZ, c.IORCSZ, c.ICDOFF = p.u32(1792), p.u32(1796), p.u16(1800)
	c.FCATT, c.MSDBD, c.OFCS = p.u8(1802), p.u8(1803), p.u16(1804)
}

// decodePowerStates reads the first n (at most maxPowerStates) power
// state descriptors.
func decodePowerStates(p page, n int) []PowerState {
	states := make([]PowerState, n)
	for i := range states {
		d := page(p[psdOffset+i*psdSize:][:psdSize])
		states[i] = PowerState{
			MaxPower: d.u16(0), Flags: d.u8(3), EntryLat: d.u32(4), ExitLat: d.u32(8),
			ReadTput: d.u8(12) & 0x1f, ReadLat: d.u8(13) & 0x1f, WriteTput: d.u8(14) & 0x1f, WriteLat: d.u8(15) & 0x1f,
			IdlePower: d.u16(16), IdleScale: d.u8(18) >> 6,
			ActivePower: d.u16(20), ActivePowerWork: d.u8(22) & 7, ActiveScale: d.u8(22) >> 6,
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
