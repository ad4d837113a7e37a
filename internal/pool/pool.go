// Package pool is a typed sync.Pool of values that are reset when they go
// back, for the pooled documents of rpckit's protobuf and Thrift dynamic
// packages.
//
// It is a leaf: the standard library only.
package pool

import "sync"

// Of is a pool of *T. The zero Of is ready to use.
type Of[T any, PT interface {
	*T
	Reset()
}] struct{ p sync.Pool }

// Get returns a value from the pool, or a new zero one.
func (p *Of[T, PT]) Get() PT {
	if v, ok := p.p.Get().(PT); ok {
		return v
	}
	return PT(new(T))
}

// Put resets v and returns it to the pool.
func (p *Of[T, PT]) Put(v PT) {
	v.Reset()
	p.p.Put(v)
}
