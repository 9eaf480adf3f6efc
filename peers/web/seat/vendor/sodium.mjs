// The one door to libsodium (pins.json): every seat module imports `sodium` from here, so
// the browser's import map and node's resolution both meet the vendored files.
import sodium from "libsodium-wrappers-sumo";

await sodium.ready;

export default sodium;
