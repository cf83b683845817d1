#include "png_pixels.h"

#include <cstdlib>
#include <unordered_set>
#include <vector>

#ifdef TARE_HAVE_ZLIB
#include <zlib.h>
#endif

namespace tare::e2e {
namespace {

uint32_t Be32(const std::string& b, size_t at) {
  return (uint32_t{static_cast<unsigned char>(b[at])} << 24) | (uint32_t{static_cast<unsigned char>(b[at + 1])} << 16) |
         (uint32_t{static_cast<unsigned char>(b[at + 2])} << 8) | uint32_t{static_cast<unsigned char>(b[at + 3])};
}

int Paeth(int a, int b, int c) {
  const int p = a + b - c;
  const int pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
  if (pa <= pb && pa <= pc) return a;
  return pb <= pc ? b : c;
}

}  // namespace

PngStats AnalysePng(const std::string& bytes) {
  PngStats s;
  if (bytes.size() < 8 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0) {
    s.error = "not a PNG file";
    return s;
  }
  int bit_depth = 0, colour_type = 0, interlace = 0;
  std::string idat;
  for (size_t at = 8; at + 8 <= bytes.size();) {
    const uint32_t length = Be32(bytes, at);
    const std::string type = bytes.substr(at + 4, 4);
    if (at + 12 + length > bytes.size()) break;
    if (type == "IHDR") {
      s.width = Be32(bytes, at + 8);
      s.height = Be32(bytes, at + 12);
      bit_depth = static_cast<unsigned char>(bytes[at + 16]);
      colour_type = static_cast<unsigned char>(bytes[at + 17]);
      interlace = static_cast<unsigned char>(bytes[at + 20]);
    } else if (type == "IDAT") {
      idat += bytes.substr(at + 8, length);
    }
    at += 12 + length;
  }
  if (bit_depth != 8 || (colour_type != 2 && colour_type != 6) || interlace != 0 || s.width == 0) {
    s.error = "unsupported PNG (only 8-bit RGB/RGBA, not interlaced)";
    return s;
  }
#ifndef TARE_HAVE_ZLIB
  s.error = "built without zlib: install zlib1g-dev (scripts/deps.sh) and reconfigure";
  return s;
#else
  const size_t bpp = colour_type == 6 ? 4 : 3;
  const size_t stride = s.width * bpp;
  std::vector<unsigned char> raw((stride + 1) * s.height);
  uLongf raw_size = raw.size();
  if (uncompress(raw.data(), &raw_size, reinterpret_cast<const Bytef*>(idat.data()), idat.size()) != Z_OK ||
      raw_size != raw.size()) {
    s.error = "IDAT does not inflate to the image's size";
    return s;
  }
  std::vector<unsigned char> prev(stride, 0), row(stride);
  std::unordered_set<uint32_t> colours;
  size_t non_white = 0;
  for (uint32_t y = 0; y < s.height; ++y) {
    const unsigned char* in = &raw[y * (stride + 1)];
    const int filter = in[0];
    for (size_t i = 0; i < stride; ++i) {
      const int a = i >= bpp ? row[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
      int predictor = 0;
      switch (filter) {
        case 0:
          predictor = 0;
          break;
        case 1:
          predictor = a;
          break;
        case 2:
          predictor = b;
          break;
        case 3:
          predictor = (a + b) / 2;
          break;
        case 4:
          predictor = Paeth(a, b, c);
          break;
        default:
          s.error = "bad row filter";
          return s;
      }
      row[i] = static_cast<unsigned char>(in[1 + i] + predictor);
    }
    for (size_t x = 0; x < s.width; ++x) {
      const unsigned char* p = &row[x * bpp];
      const uint32_t rgb = (uint32_t{p[0]} << 16) | (uint32_t{p[1]} << 8) | p[2];
      colours.insert(rgb);
      non_white += rgb != 0xFFFFFF ? 1 : 0;
    }
    prev = row;
  }
  s.distinct_colours = colours.size();
  s.non_white = static_cast<double>(non_white) / (static_cast<double>(s.width) * s.height);
  s.ok = true;
  return s;
#endif
}

}  // namespace tare::e2e
