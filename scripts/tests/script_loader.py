"""Loads one of scripts/' Python programs (files without a .py extension) as a module, for its tests."""
import importlib.machinery
import importlib.util
import pathlib

SCRIPTS = pathlib.Path(__file__).resolve().parent.parent


def load(name):
    module_name = name.replace("-", "_")
    loader = importlib.machinery.SourceFileLoader(module_name, str(SCRIPTS / name))
    spec = importlib.util.spec_from_loader(module_name, loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module
