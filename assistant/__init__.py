"""table-assistant: a self-voicing companion for Unstable Unicorns and Llamas Unleashed.

Importing this package is cheap on purpose: OpenCV, Textual, zxing-cpp, pyzbar, pyttsx3 and liblouis are
only imported inside the adapter that needs them.
"""

__version__ = "0.1.0"
