import { setupFilters } from "./filters.js";

const gallery = document.querySelector("[data-gallery]");
if (gallery) setupFilters(gallery);
