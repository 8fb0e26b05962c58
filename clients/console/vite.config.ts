import { defineConfig } from "vite";

// `base: "./"` makes every asset URL relative, so the bundle works wherever it is served:
// under /console/ by `referee serve`, or at the root by `vite preview`.
export default defineConfig({
  base: "./",
  build: { outDir: "dist", emptyOutDir: true },
});
