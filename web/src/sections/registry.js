// The one list of the page's sections, in page order (order.js): id, title, rung on the chapter's
// ladder (or null) and builder. The ladder, the element's section= check and the page all read it.
import batched from './batched.js';
import stepByStep from './step-by-step.js';
import temperature from './temperature.js';
import whySqrtDk from './why-sqrt-dk.js';
import classes from './classes.js';
import causal from './causal.js';
import multiHead from './multi-head.js';
import train from './train.js';
import bugHunt from '../learn/bug-hunt.js';
import check from './check.js';
import { PAGE_ORDER } from './order.js';

// In the chapter's order (order.js says why): rung 1's batched product, then §3.4.1's three sections
// and §3.4.2's class that bundles them ("everything above" is then true), §3.5, §3.6, the bug hunt
// and "Check my code" (the reader's own module against them), training.
const ALL = [batched, stepByStep, temperature, whySqrtDk, classes, causal, multiHead, bugHunt, check, train];
export const SECTIONS = PAGE_ORDER.map((id) => ALL.find((s) => s.id === id));

// A Map, not an object: a name from outside (an attribute, a URL) is never looked up among
// Object.prototype's keys such as __proto__ or constructor.
const byId = new Map(SECTIONS.map((s) => [s.id, s]));
export const sectionById = (id) => byId.get(id) || null;
// The ladder in the chapter's order, whatever the page's.
export const RUNGS = [batched, stepByStep, causal, multiHead];
