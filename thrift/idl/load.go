package idl

import (
	"errors"
	"io/fs"
	"path"
	"strings"
)

// Options configures parsing. The zero value parses a file without a file
// system: includes then fail, as there is nowhere to read them from.
type Options struct {
	// FS is where ParseFile reads its file and where includes are found;
	// os.DirFS("/") gives the whole disk (paths then go without their
	// leading /).
	FS fs.FS
	// IncludePaths are directories of FS searched for an include after the
	// directory of the file that includes it, as the compiler's -I.
	IncludePaths []string
	// MaxDepth caps how deeply types and constant values nest; zero means
	// 64.
	MaxDepth int
	// MaxValues caps how many values the constants of all the files hold
	// once references to other constants are expanded; zero means 1<<20.
	MaxValues int
}

// ParseFile reads the file name from opts.FS and parses it with everything
// it includes.
func ParseFile(name string, opts Options) (*File, error) {
	name = path.Clean(name)
	l := newLoader(opts)
	src, err := l.read(name, Pos{File: name, Line: 1, Col: 1})
	if err != nil {
		return nil, err
	}
	return l.load(name, src)
}

// Parse parses src as the file name; its includes are read from opts.FS.
func Parse(name string, src []byte, opts Options) (*File, error) {
	return newLoader(opts).load(name, src)
}

// loader parses a file and its includes, each file once, and resolves
// them in include order.
type loader struct {
	opts    Options
	files   map[string]*File
	loading []string // the include chain being parsed, for cycles
	values  int      // constant values built so far, against MaxValues
}

func newLoader(opts Options) *loader {
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = 64
	}
	if opts.MaxValues <= 0 {
		opts.MaxValues = 1 << 20
	}
	return &loader{opts: opts, files: map[string]*File{}}
}

func (l *loader) read(name string, at Pos) ([]byte, error) {
	if l.opts.FS == nil {
		return nil, errorf(at, "cannot read %q: no file system to read it from (Options.FS is nil)", name)
	}
	src, err := fs.ReadFile(l.opts.FS, name)
	if err != nil {
		msg := err.Error()
		var pe *fs.PathError
		if errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		return nil, &Error{Pos: at, Msg: "cannot read " + name + ": " + msg, Err: err}
	}
	return src, nil
}

func (l *loader) load(name string, src []byte) (*File, error) {
	f, err := syntaxOf(name, src, l.opts.MaxDepth)
	if err != nil {
		return nil, err
	}
	l.files[name] = f
	l.loading = append(l.loading, name)
	defer func() { l.loading = l.loading[:len(l.loading)-1] }()
	if err := l.includes(f); err != nil {
		return nil, err
	}
	return f, resolve(f, l)
}

// includes loads the files f includes, each once, reporting cycles.
func (l *loader) includes(f *File) error {
	f.includes = map[string]*File{}
	for _, inc := range f.Includes {
		p, err := l.find(f, inc)
		if err != nil {
			return err
		}
		if err := l.cycle(p, inc.Pos); err != nil {
			return err
		}
		if inc.File = l.files[p]; inc.File == nil {
			src, err := l.read(p, inc.Pos)
			if err != nil {
				return err
			}
			if inc.File, err = l.load(p, src); err != nil {
				return err
			}
		}
		if other, ok := f.includes[inc.File.Name]; ok && other != inc.File {
			return errorf(inc.Pos, "include %q: %s and %s would both be known as %s", inc.Path, other.Path, inc.File.Path, inc.File.Name)
		}
		f.includes[inc.File.Name] = inc.File
	}
	return nil
}

func (l *loader) cycle(p string, at Pos) error {
	for i, q := range l.loading {
		if q == p {
			chain := append(append([]string{}, l.loading[i:]...), p)
			return errorf(at, "include cycle: %s", strings.Join(chain, " -> "))
		}
	}
	return nil
}

// find looks for an include next to the including file, then in each of
// the include paths.
func (l *loader) find(f *File, inc *Include) (string, error) {
	if l.opts.FS == nil {
		return "", errorf(inc.Pos, "include %q: no file system to read it from (Options.FS is nil)", inc.Path)
	}
	if strings.HasPrefix(inc.Path, "/") {
		return l.exists(path.Clean(inc.Path[1:]), inc)
	}
	dirs := append([]string{path.Dir(f.Path)}, l.opts.IncludePaths...)
	for _, dir := range dirs {
		p := path.Join(dir, inc.Path)
		if fs.ValidPath(p) {
			if st, err := fs.Stat(l.opts.FS, p); err == nil && !st.IsDir() {
				return p, nil
			}
		}
	}
	return "", errorf(inc.Pos, "include %q not found: searched %s", inc.Path, strings.Join(dirs, ", "))
}

func (l *loader) exists(p string, inc *Include) (string, error) {
	if st, err := fs.Stat(l.opts.FS, p); err == nil && !st.IsDir() {
		return p, nil
	}
	return "", errorf(inc.Pos, "include %q not found", inc.Path)
}

// fileName is a file's base name without its extension.
func fileName(p string) string {
	base := path.Base(p)
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		return base[:i]
	}
	return base
}
