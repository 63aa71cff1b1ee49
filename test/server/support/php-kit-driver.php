<?php
// Drives the vendor's v3.2.0 PHP kit for the interop tests: runs the calls a job lists and prints what the kit answered, as JSON.
//
// Job (JSON on stdin): { "compat": path of php8-compat.php, "config": the kit's config array,
//   "steps": [[method, ...args], ...] }. A method is a public method of the kit (siteDetect,
//   deviceVendors, deviceModels, deviceView, deviceWhatHas, siteFetchSpecs, siteFetchTrees,
//   siteFetchArchive) or "detectEach" with the path of a JSON-lines file of header sets.
// Output (JSON on stdout): one object per step with ok, status and message as the kit reports
// them, plus a short summary of the reply (never the whole of a download).

$job = json_decode(stream_get_contents(STDIN), true);
if (!is_array($job)) {
    fwrite(STDERR, "php-kit-driver: the job on stdin is not JSON\n");
    exit(2);
}
require $job['compat'];

$kit = new HD3c($job['config']);
$cacheDir = $job['config']['filesdir'] . DIRECTORY_SEPARATOR . 'hd34cache';

/** Counts the files the kit cached, by kind. */
function cachedFiles($dir) {
    $all = glob($dir . DIRECTORY_SEPARATOR . '*.json');
    $devices = count(glob($dir . DIRECTORY_SEPARATOR . 'Device_*.json'));
    $extras = count(glob($dir . DIRECTORY_SEPARATOR . 'Extra_*.json'));
    return array('devices' => $devices, 'extras' => $extras, 'others' => count($all) - $devices - $extras);
}

/** The fields the interop tests compare, from a detect reply. */
function detection($reply) {
    $specs = isset($reply['hd_specs']) && is_array($reply['hd_specs']) ? $reply['hd_specs'] : array();
    $field = function ($name) use ($specs) {
        return isset($specs[$name]) ? (string) $specs[$name] : null;
    };
    return array(
        'status' => isset($reply['status']) ? (int) $reply['status'] : null,
        'class' => isset($reply['class']) ? $reply['class'] : null,
        'vendor' => $field('general_vendor'),
        'model' => $field('general_model'),
        'platform' => $field('general_platform'),
        'platformVersion' => $field('general_platform_version'),
        'browser' => $field('general_browser'),
        'browserVersion' => $field('general_browser_version'),
    );
}

$results = array();
foreach ($job['steps'] as $step) {
    $method = $step[0];
    $args = array_slice($step, 1);
    if ($method === 'detectEach') {
        $detections = array();
        foreach (file($args[0], FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $line) {
            $kit->siteDetect(json_decode($line, true));
            $detections[] = detection($kit->getReply());
        }
        $results[] = array('call' => $method, 'detections' => $detections);
        continue;
    }
    $ok = call_user_func_array(array($kit, $method), $args);
    $reply = $kit->getReply();
    $result = array(
        'call' => $method,
        'ok' => (bool) $ok,
        'status' => isset($reply['status']) ? (string) $reply['status'] : null,
        'message' => isset($reply['message']) ? $reply['message'] : null,
    );
    switch ($method) {
        case 'siteDetect':
            $result['detection'] = detection($reply);
            break;
        case 'deviceVendors':
            $result['vendors'] = isset($reply['vendor']) ? array_values($reply['vendor']) : null;
            break;
        case 'deviceModels':
            $result['models'] = isset($reply['model']) ? array_values($reply['model']) : null;
            break;
        case 'deviceView':
            $result['device'] = isset($reply['device']) ? $reply['device'] : null;
            break;
        case 'deviceWhatHas':
            $result['devices'] = isset($reply['devices']) ? $reply['devices'] : null;
            break;
        case 'siteFetchSpecs':
        case 'siteFetchTrees':
            $result['cached'] = cachedFiles($cacheDir);
            break;
        case 'siteFetchArchive':
            $raw = $kit->getRawReply();
            $result['rawBytes'] = is_string($raw) ? strlen($raw) : 0;
            $result['cached'] = cachedFiles($cacheDir);
            // The kit refuses archives under 9,000,000 bytes: say whether the bytes were a good one.
            if (is_string($raw) && substr($raw, 0, 2) === 'PK') {
                $copy = tempnam(sys_get_temp_dir(), 'hd3zip');
                file_put_contents($copy, $raw);
                $zip = new ZipArchive();
                $result['zipEntries'] = $zip->open($copy) === true ? $zip->numFiles : null;
                if ($result['zipEntries'] !== null) $zip->close();
                unlink($copy);
            }
            break;
    }
    $results[] = $result;
}
echo json_encode($results);
