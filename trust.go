package wake

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/spf13/afero"

	"github.com/wakeproto/wake/store"
	"github.com/wakeproto/wake/tiers"
)

// settleTrust settles the settings of wake.toml that need the user's trust
// (see [Memory.SetTrust]) and, with warn, warns of each it ignored.
func (m *Memory) settleTrust(cfg tiers.Config, data []byte, warn bool) (tiers.Config, tiers.Trust, error) {
	dir := tiers.UserDir(m.o.Env)
	uc, err := tiers.LoadUserConfig(m.o.FS, dir)
	if err != nil {
		return cfg, tiers.Trust{}, &ConfigError{err}
	}
	store, err := tiers.ReadTrust(m.o.FS, dir)
	if err != nil {
		m.warn(err.Error())
	}
	real, err := tiers.RealRoot(m.o.FS, m.root)
	if err != nil {
		return cfg, tiers.Trust{}, fmt.Errorf("resolving the memory root %s: %w", m.root, err)
	}
	cfg, tr := tiers.ApplyTrust(cfg, data, uc, store, real)
	if warn && len(tr.Ignored) > 0 {
		m.notify(Notice{Kind: "warning",
			Msg:  fmt.Sprintf("%s sets %s, which only a wake.toml you trust may set; ignored (using your own configuration or the default)", m.path(tiers.ConfigPath), strings.Join(tr.Ignored, " and ")),
			Hint: fmt.Sprintf("if you wrote this wake.toml or checked it, run 'wake trust --root %s'", m.root)})
	}
	return cfg, tr, nil
}

// ErrNoUserDir is returned when the environment names no directory for
// the user's own wake files (neither XDG_CONFIG_HOME nor HOME).
var ErrNoUserDir error = hinted{errors.New("neither $XDG_CONFIG_HOME nor $HOME is set"), "set HOME: trusted roots are recorded in ~/.config/wake/trust.json"}

// TrustChange is what [Memory.SetTrust] did.
type TrustChange struct {
	Trust   tiers.Trust // wake.toml as it is now
	Store   string      // the trust store's path
	Changed bool        // the store changed
	NoFile  bool        // the root has no wake.toml: the root is trusted as it is
}

// SetTrust records that the user trusts the wake.toml of the memory root
// at root as it is now (the root's real path and the file's SHA-256, in the
// user's trust store), or with revoke forgets the root. It needs no open
// [Memory]: trusting is what a user does before one.
func SetTrust(ctx context.Context, root string, o Options, revoke bool) (TrustChange, error) {
	m := bare(root, o)
	m.recover(ctx)
	dir := tiers.UserDir(m.o.Env)
	if dir == "" {
		return TrustChange{}, ErrNoUserDir
	}
	data, err := m.readConfig()
	if err != nil {
		return TrustChange{}, err
	}
	cfg := tiers.DefaultConfig()
	if data != nil {
		if cfg, err = tiers.ParseConfig(m.path(tiers.ConfigPath), data); err != nil {
			return TrustChange{}, &ConfigError{err}
		}
	}
	_, tr, err := m.settleTrust(cfg, data, false)
	if err != nil {
		return TrustChange{}, err
	}
	ch := TrustChange{Trust: tr, Store: filepath.Join(dir, tiers.TrustFile), NoFile: tr.SHA256 == ""}
	rec := tiers.TrustedRoot{Root: tr.Root, SHA256: tr.SHA256, At: m.o.Now()}
	ch.Changed, err = store.SetTrust(ctx, m.o.FS, m.o.Locker, dir, rec, revoke)
	if err == nil && ch.Changed {
		m.recordOutside(ctx, ch.Store, "the trust store: the memory roots you made or trusted")
	}
	return ch, err
}

// readConfig reads wake.toml once, for its settings and its hash: nil
// when there is none. One that leads out of the root or is not a regular
// file is refused, as [Find] refuses it.
func (m *Memory) readConfig() ([]byte, error) {
	if err := tiers.CheckConfigFile(m.o.FS, m.root); err != nil {
		return nil, &ConfigError{err}
	}
	data, err := afero.ReadFile(m.o.FS, m.path(tiers.ConfigPath))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", m.path(tiers.ConfigPath), err)
	}
	if data == nil {
		data = []byte{} // an empty wake.toml is there, unlike a missing one
	}
	return data, nil
}
