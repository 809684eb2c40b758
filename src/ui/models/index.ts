// The Models dialog's built-in section with its styles (the view file itself imports no CSS, so it also renders
// outside Vite, as scripts/builtinModelsScreen.tsx does).
import './models.css';

export { BuiltinModels } from './BuiltinModels';
