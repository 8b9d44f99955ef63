"""Static files storage for production.

The pages load ES modules (``<script type="module">``) that import each other by
relative URL (``import { BoardView } from "./board.js";``). With the plain
manifest storage the entry file gets a hashed name but its imports keep the
unhashed ones, so a browser loads ``board.js`` (served with a short cache
lifetime and never precached by a game's service worker) next to
``play.3f2a….js``. Django can rewrite those imports to the hashed names
(``support_js_module_import_aggregation``); it is off by default, so it is
switched on here, on top of WhiteNoise's compressing manifest storage.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class MatikaStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Hashed names, rewritten JS module imports, gzip/brotli copies."""

    support_js_module_import_aggregation = True
