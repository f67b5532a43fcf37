"""magewars: a declarative rules language and reference interpreter for Mage Wars Arena."""
__version__ = "0.1.0"
