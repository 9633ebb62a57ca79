"""The model layer imports without plotting or widget libraries (DESIGN: imports point one way)."""

import subprocess
import sys
import textwrap

MODEL_MODULES = ["units", "sources", "catalog", "published", "utilization", "collectives",
                 "collectives.reference", "topology", "pricebook", "cost", "training", "fabric", "reliability", "standards",
                 "rdma", "memory", "energy", "silicon", "matmul", "roadmap", "moe", "inference", "calibrate",
                 "exercises"]


def test_model_imports_without_matplotlib_or_ipywidgets():
    script = textwrap.dedent(f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split('.')[0] in ('matplotlib', 'ipywidgets', 'IPython'):
                    raise ImportError('blocked: ' + name)
        sys.meta_path.insert(0, Block())
        import interconnect_lab
        for module in {MODEL_MODULES!r}:
            __import__('interconnect_lab.' + module)
        print('ok')
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_public_api_is_curated():
    import interconnect_lab

    for name in interconnect_lab.__all__:
        assert hasattr(interconnect_lab, name), name


def import_graph():
    """Module -> the library modules it imports, from every import statement (at the top or in a function)."""
    import ast
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent / "interconnect_lab"
    modules = {}
    for path in root.rglob("*.py"):
        parts = ("interconnect_lab", *path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        name = ".".join(parts[:-1] if is_package else parts)
        modules[name] = (path, is_package)

    def resolve(module, is_package, level, target):
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (level - 1)] if level else []
        return ".".join([*base, *([target] if target else [])])

    graph = {}
    for module, (path, is_package) in modules.items():
        edges = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges |= {alias.name for alias in node.names if alias.name in modules}
            elif isinstance(node, ast.ImportFrom):
                source = resolve(module, is_package, node.level, node.module) if node.level else node.module
                if source not in modules:
                    continue
                for alias in node.names:
                    # ``from . import units`` names a module; ``from .model import x`` a name in one.
                    submodule = f"{source}.{alias.name}"
                    edges.add(submodule if submodule in modules else source)
        graph[module] = edges - {module}
    return graph


def find_cycle(graph):
    """One import cycle as a list of modules (first == last), or None."""
    state = {}

    def visit(module, path):
        state[module] = "open"
        for target in sorted(graph.get(module, ())):
            if state.get(target) == "open":
                return [*path[path.index(target):], target]
            if target not in state:
                cycle = visit(target, [*path, target])
                if cycle:
                    return cycle
        state[module] = "done"
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module, [module])
            if cycle:
                return cycle
    return None


def test_the_library_has_no_import_cycle():
    graph = import_graph()
    assert "interconnect_lab.widgets.static" in graph["interconnect_lab.widgets.panel"]  # the graph sees imports
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_names_a_cycle():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def library_modules():
    """Every module of the library: dotted name -> (path, is_package)."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent / "interconnect_lab"
    modules = {}
    for path in root.rglob("*.py"):
        parts = ("interconnect_lab", *path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return modules


def _is_private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_imports(module, source_text, is_package, modules):
    """Each ``(line, what)`` where ``module`` takes a private (underscore) name from another library module.

    ``from .x import _y`` and ``x._y`` on an imported library module both count; importing a
    private *module* (``from . import _validation``) and the public names of one do not.
    """
    import ast

    def resolve(level, target):
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (level - 1)] if level else []
        return ".".join([*base, *([target] if target else [])])

    found, bound = [], {}
    tree = ast.parse(source_text)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = resolve(node.level, node.module) if node.level else node.module
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{source}.{alias.name}"
                elif source in modules and _is_private(alias.name):
                    found.append((node.lineno, f"from {source} import {alias.name}"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name in modules and alias.asname:
                    bound[alias.asname] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
                and _is_private(node.attr) and f"{bound[node.value.id]}.{node.attr}" not in modules):
            found.append((node.lineno, f"{bound[node.value.id]}.{node.attr}"))
    return found


def test_no_module_imports_another_modules_private_names():
    # STYLE rule 14: what one module offers another is a public (documented) name.
    modules = library_modules()
    found = [f"{name}:{line}: {what}" for name, (path, is_package) in sorted(modules.items())
             for line, what in private_imports(name, path.read_text(encoding="utf-8"), is_package, modules)]
    assert not found, "private names imported across modules:\n" + "\n".join(found)


def test_the_private_import_finder_sees_both_forms():
    modules = {"pkg": (None, True), "pkg.a": (None, False), "pkg.b": (None, False), "pkg._c": (None, False)}
    source = ("from .b import _hidden, shown\nfrom . import _c, b\nfrom ._c import helper\n"
              "def f():\n    return b._secret + b.__name__ + _c.helper\n")
    assert private_imports("pkg.a", source, False, modules) == [(1, "from pkg.b import _hidden"), (5, "pkg.b._secret")]


#: The longest a function of ``interconnect_lab/training/`` may be [lines], decorators and docstring
#: included: a term of the step in a screen (STYLE rule 14).
MAX_TRAINING_FUNCTION_LINES = 80


def long_functions(source_text, limit):
    """(name, lines) of each function of ``source_text`` longer than ``limit`` lines."""
    import ast

    found = []
    for node in ast.walk(ast.parse(source_text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
            if node.end_lineno - start + 1 > limit:
                found.append((node.name, node.end_lineno - start + 1))
    return found


def test_no_function_in_training_is_longer_than_a_screen():
    modules = library_modules()
    found = [f"{path.name}: {name} ({lines} lines)"
             for module, (path, _) in sorted(modules.items()) if module.startswith("interconnect_lab.training")
             for name, lines in long_functions(path.read_text(encoding="utf-8"), MAX_TRAINING_FUNCTION_LINES)]
    assert not found, f"functions over {MAX_TRAINING_FUNCTION_LINES} lines: {found}"


def test_the_length_finder_counts_decorators_and_docstrings():
    source = "@decorator\ndef f():\n    '''Doc.\n\n    More.\n    '''\n    return 1\n"
    assert long_functions(source, 6) == [("f", 7)] and long_functions(source, 7) == []
