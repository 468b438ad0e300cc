/**
 * The live drop feed's public entry. Screens place `DropRibbonSlot`; the ribbon itself (reader,
 * store, texts) is a chunk of its own, loaded when the slot first renders.
 */
export { DropRibbonSlot } from './components/ribbon-slot';
export { useShowNameSetting } from './name-setting';
