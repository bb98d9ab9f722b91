"""The scanner adapter: frame sources (webcam, video, images), the QR decoder cascade, frame measurements for
aiming guidance, the live scanning loop, and printable QR stickers.

Native libraries (OpenCV, zxing-cpp, ZBar through pyzbar, numpy, Pillow) are imported inside the functions that
use them, so importing this package costs nothing and a missing library is reported, never raised.
"""
