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
import { PAGE_ORDER } from './order.js';

// §3.4 (this page's rung) comes first, so the first screen shows it; §3.4.2's class follows the three
// sections of §3.4.1 it bundles ("everything above" is then true); rung 1's batched product comes
// after, as the look back of the second source document (the product stays the same with trainable
// weights), right before §3.5 masks that same weight matrix. The bug hunt comes after the
// mechanisms its planted mistakes break, before training.
const ALL = [batched, stepByStep, temperature, whySqrtDk, classes, causal, multiHead, bugHunt, train];
export const SECTIONS = PAGE_ORDER.map((id) => ALL.find((s) => s.id === id));

// A Map, not an object: a name from outside (an attribute, a URL) is never looked up among
// Object.prototype's keys such as __proto__ or constructor.
const byId = new Map(SECTIONS.map((s) => [s.id, s]));
export const sectionById = (id) => byId.get(id) || null;
// The ladder in the chapter's order, whatever the page's.
export const RUNGS = [batched, stepByStep, causal, multiHead];
