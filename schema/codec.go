package schema

import (
	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// pageBytes is the uncompressed size at which a column's page is cut. 64
// KiB rather than parquet-go's 256 KiB: a dictionary's size limit is only
// checked when a page is cut, and an index page of 256 KiB holds 64k rows,
// enough for a high-cardinality column (url, capture_id) to grow its
// dictionary to several MiB past the limit. Measured on 1M captures and 3M
// bots rows: live heap 143 MiB at 256 KiB, 105 MiB at 64 KiB, no slower.
const pageBytes = 64 << 10

// zstdWindow bounds the zstd window. Each page is compressed on its own
// (EncodeAll), so a window larger than a page buys nothing, while the
// encoder's default window made its history buffers the largest single
// item on the heap (32 MiB of 105).
const zstdWindow = 256 << 10

// zstdCodec is the Parquet ZSTD codec with a window sized to pages. It is
// safe for concurrent use: zstd.Encoder.EncodeAll and
// zstd.Decoder.DecodeAll are.
type zstdCodec struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

func newZstdCodec() (*zstdCodec, error) {
	enc, err := zstd.NewWriter(nil,
		zstd.WithEncoderLevel(zstd.SpeedDefault),
		zstd.WithWindowSize(zstdWindow),
		zstd.WithEncoderCRC(false),
		zstd.WithZeroFrames(true),
		zstd.WithLowerEncoderMem(true),
	)
	if err != nil {
		return nil, err
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		return nil, err
	}
	return &zstdCodec{enc: enc, dec: dec}, nil
}

func (c *zstdCodec) String() string { return "ZSTD" }

func (c *zstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	return c.enc.EncodeAll(src, dst[:0]), nil
}

func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) {
	return c.dec.DecodeAll(src, dst[:0])
}
