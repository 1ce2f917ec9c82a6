"""The house's layers beyond what `lint-imports` sees (docs/architecture.md, "Names across the layers").

import-linter follows `import` statements; these tests follow the edges made of names: dotted paths in the settings,
the Celery task sent by name, the broker's transport registered by name, URL names
(`{% url %}`, `reverse`, `redirect`), template names (`{% include %}`, `{% extends %}`, `render`), template
libraries (`{% load %}`), the URL maps' includes and the models' relations. Each must resolve, and point where the
layers allow: to its own app or one below it, to the project's frame (below), or to an upward edge documented in
docs/architecture.md and listed here.
"""

from __future__ import annotations

import ast
import importlib
import os
import re
import subprocess
import sys
import tomllib
from functools import cache
from pathlib import Path

import grimp
import pytest
from django.apps import apps
from django.template import TemplateDoesNotExist, engines
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils.module_loading import import_string

from tests.support import ROOT

pytestmark = pytest.mark.config_independent

# What the site's frame (config: base.html, the header and its links) offers every app's pages: they may name these
# though config stands above them.
FRAME_URL_NAMES = {"home", "login", "signup", "rules", "api-docs"}
FRAME_TEMPLATES = {"base.html"}
FRAME_LIBRARIES = {"icons"}  # settings.TEMPLATES registers it for any app's templates

# Names that point up a layer, each one documented in docs/architecture.md: (the app that names, what it names).
UPWARD_NAMES = {
    ("decks", "url playtest:new"),  # a deck's editor offers a goldfish table for it
    ("decks", "url playtest:tune_new"),  # a deck's page offers a tuning run for it
    ("cards", "library deck_lists"),  # a card's page lists the public decks that play it
}


@cache
def import_contracts() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


@cache
def layer_order() -> list[str]:
    """The top-level packages, highest first, as the first layers contract orders them."""
    top = next(c for c in import_contracts()["contracts"] if c["type"] == "layers" and not c.get("containers"))
    return top["layers"]


@cache
def import_graph() -> grimp.ImportGraph:
    return grimp.build_graph(*import_contracts()["root_packages"], include_external_packages=True, cache_dir=None)


def may_name(namer: str, named: str | None) -> bool:
    """Whether code or a template of `namer` may depend on something of `named` (None: outside the project)."""
    order = layer_order()
    return named is None or order.index(namer) <= order.index(named)


def top_package(dotted: str) -> str | None:
    head = dotted.split(".")[0]
    return head if head in layer_order() else None


def product_settings():
    """The project's settings as written (config/settings.py), without what the test settings add to them."""
    return importlib.import_module("config.settings")


def check(edges) -> list[str]:
    """The edges (namer, label, owner of the named thing) that point where the layers do not allow."""
    return sorted(f"{namer} names {label} ({owner})" for namer, label, owner in edges
                  if not (may_name(namer, owner) or (namer, label) in UPWARD_NAMES or frame(label, owner)))


def frame(label: str, owner: str | None) -> bool:
    kind, _, name = label.partition(" ")
    return owner == "config" and name in {"url": FRAME_URL_NAMES, "template": FRAME_TEMPLATES,
                                          "library": FRAME_LIBRARIES}.get(kind, set())


# -- The contracts themselves ---------------------------------------------------------------------------------


def test_every_package_of_the_project_is_linted_and_in_a_layer():
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests"}
    assert set(import_contracts()["root_packages"]) == packages
    assert set(layer_order()) == packages


def test_every_app_and_engine_has_an_exhaustive_contract_of_storeys():
    exhaustive = {container for c in import_contracts()["contracts"] if c["type"] == "layers" and c.get("exhaustive")
                  for container in c.get("containers", [])}
    installed = {config.name for config in apps.get_app_configs() if top_package(config.name)}
    assert {*layer_order(), *installed, "playtest.dreadgate", "dreaddraw.engine"} <= exhaustive


@pytest.mark.parametrize("package", ["core", "playtest.dreadgate", "dreaddraw.engine"])
def test_the_pure_packages_import_only_the_standard_library_and_core(package):
    """Whatever is installed: the forbidden contracts name the requirements; this names the standard library."""
    graph = import_graph()
    outside = set()
    for module in graph.find_descendants(package) | {package}:
        for imported in graph.find_modules_directly_imported_by(module):
            top = imported.split(".")[0]
            inside = imported == package or imported.startswith(f"{package}.") or top == "core"
            if not (inside or top in sys.stdlib_module_names):
                outside.add(f"{module} -> {imported}")
    assert sorted(outside) == []


def test_dread_draw_uses_of_the_apps_below_are_the_job_framework_and_the_charts():
    """The layers let dreaddraw import every app below it; the table in docs/architecture.md allows these only."""
    allowed = ("playtest.jobs", "decks.charts", "core")
    graph = import_graph()
    used = {imported for module in graph.find_descendants("dreaddraw") | {"dreaddraw"}
            for imported in graph.find_modules_directly_imported_by(module)}
    other_apps = {module for module in used if top_package(module) not in {None, "dreaddraw"}}
    assert sorted(m for m in other_apps if not any(m == a or m.startswith(f"{a}.") for a in allowed)) == []


# -- Dotted paths in the settings --------------------------------------------------------------------------------


def _dotted_paths(value):
    if isinstance(value, str):
        if re.fullmatch(r"[a-z_]+(\.[A-Za-z_]\w*)+", value) and top_package(value):
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _dotted_paths(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _dotted_paths(item)


def _resolve(path: str):
    try:
        return importlib.import_module(path)
    except ImportError:
        return import_string(path)


def test_every_dotted_path_in_the_settings_resolves():
    settings = product_settings()
    assert get_resolver().url_patterns  # the views first, as a serving process loads them (DRF's settings come late)
    paths = {path for name in dir(settings) if name.isupper() for path in _dotted_paths(getattr(settings, name))}
    assert {"config.urls", "cards.catalog.loader.load_catalog", "dreaddraw.jobs", "playtest.tasks.reap_runs"} <= paths
    unresolved = []
    for path in sorted(paths):
        try:
            _resolve(path)
        except ImportError as error:
            unresolved.append(f"{path}: {error}")
    assert unresolved == []


def test_each_catalog_loader_is_a_function_of_an_app():
    """cards' `loadcatalog` calls each by name: the apps above cards load their sets without cards importing them."""
    loaders = product_settings().CATALOG_LOADERS
    assert loaders, "no catalog loaders"
    for label, path in loaders:
        loader = import_string(path)
        assert callable(loader), path
        assert top_package(loader.__module__) not in {None, "config", "core"}, f"{label}: {path} is not in an app"


def test_each_job_kind_module_registers_a_kind_and_stands_where_it_may_use_the_job_framework():
    """playtest.jobs.registry imports them by name; each imports the registry, so it sits in playtest or above it."""
    from playtest.jobs.registry import JobKind, kinds

    registered = kinds()
    extras = [path for path in os.environ.get("PLAYTEST_EXTRA_JOB_KIND_MODULES", "").split(",") if path]
    for path in product_settings().PLAYTEST_JOB_KIND_MODULES:
        if path in extras:
            continue  # a deployment's own, outside the project's layers
        module = importlib.import_module(path)
        own = [value for value in vars(module).values() if isinstance(value, JobKind)]
        assert own and all(registered.get(kind.name) is kind for kind in own), f"{path} registers no job kind"
        app = top_package(path)
        assert app not in {None, "config"} and may_name(app, "playtest"), f"{path} may not use playtest.jobs"
        for kind in own:  # playtest's run page includes the kind's report by this name
            engines["django"].engine.get_template(kind.report_template)


# -- The task sent by name, the broker's transport registered by name --------------------------------------------


def test_the_chunk_task_is_sent_by_the_name_the_worker_registers_for_playtest_tasks_run_chunk():
    """playtest.jobs sends it by name (the tasks module stands above the job framework)."""
    from config.celery import app
    from playtest.jobs.broker import RUN_CHUNK_TASK

    app.loader.import_default_modules()  # what a worker discovers: each installed app's tasks module
    task = app.tasks[RUN_CHUNK_TASK]
    assert (task.run.__module__, task.run.__name__) == ("playtest.tasks", "run_chunk")
    assert RUN_CHUNK_TASK == "playtest.tasks.run_chunk"


def test_the_table_think_task_is_sent_by_the_name_the_worker_registers_for_playtest_tasks_table_think():
    """The goldfish services send the strong level's turn by name (the tasks module stands above them)."""
    from config.celery import app
    from playtest.goldfish.services import TABLE_THINK_TASK

    app.loader.import_default_modules()
    task = app.tasks[TABLE_THINK_TASK]
    assert (task.run.__module__, task.run.__name__) == ("playtest.tasks", "table_think")
    assert TABLE_THINK_TASK == "playtest.tasks.table_think"


def test_each_scheduled_task_is_registered_under_its_name():
    from config.celery import app

    app.loader.import_default_modules()
    for entry in product_settings().CELERY_BEAT_SCHEDULE.values():
        task = app.tasks[entry["task"]]
        assert f"{task.run.__module__}.{task.run.__name__}" == entry["task"]


def test_the_embedded_broker_is_the_transport_that_the_celery_app_registers_by_name():
    from playtest.jobs import filesystem_transport

    settings = product_settings()
    if not settings.REDIS_URL:
        assert settings.CELERY_BROKER_URL.partition("://")[0] == filesystem_transport.NAME
    # A worker (`celery -A config`) imports the project package alone: that must register the name.
    program = ("import config, kombu.transport as t; "
               f"print(t.resolve_transport({filesystem_transport.NAME!r}).__module__)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    found = subprocess.run([sys.executable, "-c", program], cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=120)
    assert found.stdout.strip() == filesystem_transport.__name__, found.stderr[-2000:]


# -- URL maps, URL names, templates and their libraries ---------------------------------------------------------------


@cache
def url_names() -> dict[str, str | None]:
    """Every URL name ('ns:name' when namespaced) -> the app whose URL map declares it (None: outside the project)."""
    names: dict[str, str | None] = {}

    def walk(resolver, namespaces, owner):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver):
                module = getattr(entry.urlconf_module, "__name__", "")
                inner = top_package(module) if top_package(module) else owner
                walk(entry, [*namespaces, entry.namespace] if entry.namespace else namespaces, inner)
            elif isinstance(entry, URLPattern) and entry.name:
                names.setdefault(":".join([*namespaces, entry.name]), owner)

    root = get_resolver()
    walk(root, [], top_package(root.urlconf_module.__name__))
    return names


def test_the_url_maps_include_only_their_own_app_or_the_apps_below():
    root = get_resolver()
    assert root.urlconf_module.__name__ == product_settings().ROOT_URLCONF
    edges = []

    def walk(resolver):
        outer = top_package(resolver.urlconf_module.__name__)
        for entry in resolver.url_patterns:
            if isinstance(entry, URLResolver) and hasattr(entry.urlconf_module, "__name__"):
                name = entry.urlconf_module.__name__
                edges.append((outer, f"urls {name}", top_package(name)))
                if top_package(name):
                    walk(entry)

    walk(root)
    assert len(edges) > 5
    assert check(edges) == []


def template_owner(name: str) -> str | None:
    """The app whose templates hold `name` (None: a third party's); a missing template fails here."""
    _template, origin = engines["django"].engine.find_template(name.partition("#")[0])
    return file_owner(Path(origin.name))


def file_owner(path: Path) -> str | None:
    path = path.resolve()
    if not path.is_relative_to(ROOT) or ".venv" in path.parts:
        return None
    parts = path.relative_to(ROOT).parts
    if parts[0] == "templates":  # the project's folder: templates/<app>/..., the rest is config's (the frame)
        return parts[1] if len(parts) > 2 and parts[1] in layer_order() else "config"
    return top_package(parts[0])


def _templates():
    for pattern in ("templates/**/*.html", "*/templates/**/*.html"):
        for path in sorted(ROOT.glob(pattern)):
            if ".venv" not in path.parts:
                yield path, file_owner(path)


URL_TAG = re.compile(r"""\{%\s*url\s+(['"])([^'"]+)\1""")
LOAD_TAG = re.compile(r"\{%\s*load\s+([^%]+?)\s*%\}")
TEMPLATE_NAME = re.compile(r"""(['"])([\w./-]+\.html(?:#[\w-]+)?)\1""")


def template_edges() -> list[tuple[str, str, str | None]]:
    libraries = engines["django"].engine.libraries
    edges = []
    for path, namer in _templates():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        for match in URL_TAG.finditer(text):
            name = match.group(2)
            assert name in url_names(), f"{where}: no URL is named {name!r}"
            edges.append((namer, f"url {name}", url_names()[name]))
        for match in LOAD_TAG.finditer(text):
            words = match.group(1).split()
            for library in [words[-1]] if "from" in words else words:
                assert library in libraries, f"{where}: no template library {library!r}"
                edges.append((namer, f"library {library}", top_package(libraries[library])))
        for match in TEMPLATE_NAME.finditer(text):
            try:
                edges.append((namer, f"template {match.group(2)}", template_owner(match.group(2))))
            except TemplateDoesNotExist:
                pytest.fail(f"{where}: no template {match.group(2)!r}")
    return edges


def test_templates_name_urls_templates_and_libraries_of_their_app_or_below():
    edges = template_edges()
    assert {label.split()[0] for _namer, label, _owner in edges} == {"url", "library", "template"}
    assert check(edges) == []


REVERSING = {"reverse", "reverse_lazy", "redirect", "resolve_url"}


def _python_files():
    for package in layer_order():
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path, package


def python_edges() -> list[tuple[str, str, str | None]]:
    namespaces = {name.partition(":")[0] for name in url_names() if ":" in name}
    edges = []
    for path, namer in _python_files():
        where = path.relative_to(ROOT)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                value = node.value
                if value.partition(":")[0] in namespaces and re.fullmatch(r"[\w-]+:[\w-]+", value):
                    names.append(("url", value))
                elif re.fullmatch(r"[\w./-]+\.html(#[\w-]+)?", value):
                    names.append(("template", value))
            elif isinstance(node, ast.Call) and getattr(node.func, "id", getattr(node.func, "attr", "")) in REVERSING:
                first = node.args[0] if node.args else None
                value = first.value if isinstance(first, ast.Constant) else None
                if isinstance(value, str) and re.fullmatch(r"[\w-]+", value):  # a bare name, not a path
                    names.append(("url", value))
            for kind, name in names:
                if kind == "url":
                    assert name in url_names(), f"{where}:{node.lineno}: no URL is named {name!r}"
                    edges.append((namer, f"url {name}", url_names()[name]))
                else:
                    try:
                        edges.append((namer, f"template {name}", template_owner(name)))
                    except TemplateDoesNotExist:
                        pytest.fail(f"{where}:{node.lineno}: no template {name!r}")
    return edges


def test_python_names_urls_and_templates_of_its_app_or_below():
    edges = python_edges()
    assert {label.split()[0] for _namer, label, _owner in edges} == {"url", "template"}
    assert check(edges) == []


def test_each_documented_upward_name_is_still_used():
    """An exception that nothing uses any more goes from this list and from docs/architecture.md."""
    used = {(namer, label) for namer, label, _owner in template_edges() + python_edges()}
    assert UPWARD_NAMES - used == set()


def test_models_relate_only_to_models_of_their_app_or_below():
    """A relation named by a string ('decks.Deck') is an edge import-linter cannot see."""
    edges = []
    for model in apps.get_models():
        namer = top_package(model._meta.app_config.name)
        if namer is None:
            continue
        for field in model._meta.get_fields():
            if field.is_relation and not field.auto_created and field.related_model is not None:
                related = field.related_model._meta
                edges.append((namer, f"model {related.label}", top_package(related.app_config.name)))
    assert any(label == "model decks.Deck" for _namer, label, _owner in edges)
    assert check(edges) == []
