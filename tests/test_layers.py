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
